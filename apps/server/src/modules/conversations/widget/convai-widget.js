/*
 * Parla's embeddable agent widget (issue 28 item 7), served at /convai-widget.js. The published
 * ElevenLabs widget packages hard-code ElevenLabs' hosts, so this one is Parla's own, on the same protocol
 * (the conversation socket, /v1/convai/conversation). On any page:
 *
 *   <parla-convai agent-id="AGENT_ID"></parla-convai>
 *   <script src="https://YOUR-PARLA/convai-widget.js" async></script>
 *
 * A floating call button opens a conversation with the agent: the microphone streams in the agent's input
 * format (the metadata's `user_input_audio_format`: PCM at its rate, or μ-law), the agent's audio plays as
 * it arrives, speaking over the agent interrupts it, and the end button hangs up.
 * Its look comes from the agent's widget settings (GET /v1/convai/agents/{id}/widget); attributes
 * `server` (another Parla than the script's), `placement` and `text-input` override. A page on an origin
 * the agent does not allow gets the server's refusal, shown in the panel.
 */
(() => {
  if (customElements.get('parla-convai')) return;
  const scriptOrigin = (() => {
    const src = document.currentScript?.src;
    try {
      return src ? new URL(src).origin : window.location.origin;
    } catch {
      return window.location.origin;
    }
  })();

  /**
   * The microphone at the rate the agent's `user_input_audio_format` names (the metadata's; 16 kHz when it
   * names none): captured at the device's own rate (a context at another rate is refused by some browsers
   * for a microphone), then resampled here, streaming: each output sample averages the input it spans
   * (a box filter: no aliasing of the band a recogniser uses) or, going up, interpolates between two.
   */
  function createResampler(from, to) {
    const step = from / to;
    let pos = 0; // where the next output sample falls, in input samples from the start of `carry`
    let carry = new Float32Array(0);
    return (input) => {
      const all = new Float32Array(carry.length + input.length);
      all.set(carry);
      all.set(input, carry.length);
      const out = [];
      while (pos + Math.max(step, 1) <= all.length) {
        if (step > 1) {
          const start = Math.floor(pos);
          const end = Math.floor(pos + step);
          let sum = 0;
          for (let i = start; i < end; i += 1) sum += all[i];
          out.push(sum / Math.max(1, end - start));
        } else {
          const i = Math.floor(pos);
          const f = pos - i;
          out.push(all[i] * (1 - f) + (all[i + 1] ?? all[i]) * f);
        }
        pos += step;
      }
      const keep = Math.floor(pos);
      carry = all.slice(keep);
      pos -= keep;
      return Float32Array.from(out);
    };
  }

  function ulawByte(sample) {
    let s = Math.round(Math.max(-1, Math.min(1, sample)) * 32767);
    const sign = s < 0 ? 0x80 : 0;
    if (s < 0) s = -s;
    s = Math.min(s + 0x84, 0x7fff);
    let exponent = 7;
    for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; mask >>= 1) exponent -= 1;
    return ~(sign | (exponent << 4) | ((s >> (exponent + 3)) & 0x0f)) & 0xff;
  }

  function base64FromPcm(floats, ulaw) {
    const bytes = new Uint8Array(floats.length * (ulaw ? 1 : 2));
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < floats.length; i += 1) {
      if (ulaw) {
        bytes[i] = ulawByte(floats[i]);
        continue;
      }
      const s = Math.max(-1, Math.min(1, floats[i]));
      view.setInt16(i * 2, s < 0 ? s * 0x8000 : s * 0x7fff, true);
    }
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000)
      binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(binary);
  }

  function pcmFromBase64(base64, ulaw) {
    const binary = atob(base64);
    if (ulaw) {
      const out = new Float32Array(binary.length);
      for (let i = 0; i < binary.length; i += 1) {
        const u = ~binary.charCodeAt(i) & 0xff;
        const t = (((u & 0x0f) << 3) + 0x84) << ((u & 0x70) >> 4);
        out[i] = (u & 0x80 ? 0x84 - t : t - 0x84) / 32768;
      }
      return out;
    }
    const out = new Float32Array(binary.length >> 1);
    for (let i = 0; i < out.length; i += 1) {
      const v = binary.charCodeAt(i * 2) | (binary.charCodeAt(i * 2 + 1) << 8);
      out[i] = (v >= 0x8000 ? v - 0x10000 : v) / 32768;
    }
    return out;
  }

  const STYLE = `
    :host { all: initial; position: fixed; z-index: 2147483000; font: 14px/1.4 system-ui, sans-serif; }
    :host([placement="bottom-left"]) { left: 20px; bottom: 20px; }
    :host(:not([placement="bottom-left"])) { right: 20px; bottom: 20px; }
    .panel { display: flex; flex-direction: column; gap: 10px; width: min(320px, calc(100vw - 40px));
      padding: 14px; border-radius: var(--radius, 16px); background: var(--bg); color: var(--fg);
      border: 1px solid var(--border); box-shadow: 0 8px 30px rgba(0,0,0,.18); }
    .row { display: flex; align-items: center; gap: 10px; }
    .orb { width: 40px; height: 40px; border-radius: 50%; flex: none;
      background: radial-gradient(circle at 30% 30%, var(--orb2), var(--orb1)); transition: transform .2s; }
    .orb.speaking { transform: scale(1.12); }
    .status { flex: 1; min-width: 0; }
    .status strong { display: block; }
    button { font: inherit; cursor: pointer; border: none; border-radius: var(--btn-radius, 999px);
      padding: 8px 14px; background: var(--btn); color: var(--btn-fg); }
    button:focus-visible, input:focus-visible { outline: 2px solid var(--focus); outline-offset: 2px; }
    .log { max-height: 180px; overflow-y: auto; display: flex; flex-direction: column; gap: 6px; }
    .log:empty { display: none; }
    .msg { padding: 6px 10px; border-radius: 10px; background: rgba(127,127,127,.12); }
    .msg.user { align-self: flex-end; }
    .error { color: #b42318; }
    form { display: flex; gap: 6px; }
    input { flex: 1; min-width: 0; font: inherit; padding: 7px 10px; border-radius: 8px;
      border: 1px solid var(--border); background: transparent; color: inherit; }
    .hidden { display: none !important; }
  `;

  class ParlaConvai extends HTMLElement {
    constructor() {
      super();
      this.root = this.attachShadow({ mode: 'open' });
      this.socket = null;
      this.context = null;
      this.playAt = 0;
      this.sources = new Set();
      this.interruptedBelow = 0;
      this.outputUlaw = false;
      this.outputRate = 16000;
      this.inputFormat = 'pcm_16000';
    }

    get server() {
      return (this.getAttribute('server') || scriptOrigin).replace(/\/+$/, '');
    }

    async connectedCallback() {
      this.root.innerHTML = `<style>${STYLE}</style>
        <div class="panel" role="region" aria-label="Voice assistant">
          <div class="row">
            <div class="orb" aria-hidden="true"></div>
            <div class="status" aria-live="polite"><strong class="title">Need help?</strong><span class="state">Talk to our assistant</span></div>
            <button type="button" class="call">Start a call</button>
          </div>
          <div class="log" role="log" aria-live="polite"></div>
          <form class="text hidden"><input name="text" aria-label="Type a message" placeholder="Type a message" autocomplete="off"><button type="submit">Send</button></form>
        </div>`;
      this.$ = (selector) => this.root.querySelector(selector);
      this.$('.call').addEventListener('click', () => (this.socket ? this.hangUp() : this.start()));
      this.$('.text').addEventListener('submit', (event) => {
        event.preventDefault();
        const input = this.$('.text input');
        const text = input.value.trim();
        if (!text || !this.socket) return;
        this.send({ type: 'user_message', text });
        this.say('user', text);
        input.value = '';
      });
      await this.loadConfig();
    }

    disconnectedCallback() {
      this.hangUp();
    }

    async loadConfig() {
      const id = this.getAttribute('agent-id');
      const c = {
        bg_color: '#ffffff',
        text_color: '#000000',
        btn_color: '#000000',
        btn_text_color: '#ffffff',
        border_color: '#e1e1e1',
        focus_color: '#000000',
        avatar: { color_1: '#2792dc', color_2: '#9ce6e6' },
      };
      if (id) {
        try {
          const res = await fetch(`${this.server}/v1/convai/agents/${encodeURIComponent(id)}/widget`);
          if (res.ok) Object.assign(c, (await res.json()).widget_config || {});
        } catch {
          // The look falls back to the defaults; the call itself says what is wrong, if anything.
        }
      }
      this.config = c;
      const style = this.root.host.style;
      style.setProperty('--bg', c.bg_color);
      style.setProperty('--fg', c.text_color);
      style.setProperty('--btn', c.btn_color);
      style.setProperty('--btn-fg', c.btn_text_color);
      style.setProperty('--border', c.border_color);
      style.setProperty('--focus', c.focus_color);
      style.setProperty('--orb1', c.avatar?.color_1 || '#2792dc');
      style.setProperty('--orb2', c.avatar?.color_2 || '#9ce6e6');
      if (c.border_radius != null) style.setProperty('--radius', `${c.border_radius}px`);
      if (c.btn_radius != null) style.setProperty('--btn-radius', `${c.btn_radius}px`);
      if (!this.hasAttribute('placement') && c.placement) this.setAttribute('placement', c.placement);
      if (c.action_text) this.$('.title').textContent = c.action_text;
      if (c.start_call_text) this.$('.call').textContent = c.start_call_text;
    }

    setState(text, error) {
      const state = this.$('.state');
      state.textContent = text;
      state.classList.toggle('error', Boolean(error));
    }

    say(role, text) {
      const log = this.$('.log');
      const line = document.createElement('div');
      line.className = `msg ${role}`;
      line.textContent = text;
      log.append(line);
      log.scrollTop = log.scrollHeight;
    }

    send(message) {
      if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
    }

    async start() {
      const id = this.getAttribute('agent-id');
      if (!id) {
        this.setState('This widget has no agent-id.', true);
        return;
      }
      this.setState('Connecting…');
      let stream;
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          audio: { echoCancellation: true, noiseSuppression: true, channelCount: 1 },
        });
      } catch {
        this.setState('The microphone is blocked: allow it to talk, or type below.', true);
        this.$('.text').classList.remove('hidden');
      }
      const url = `${this.server.replace(/^http/, 'ws')}/v1/convai/conversation?agent_id=${encodeURIComponent(id)}&source=parla_widget&version=1`;
      const socket = new WebSocket(url, ['convai']);
      this.socket = socket;
      this.$('.call').textContent = this.config?.end_call_text || 'End call';
      socket.onopen = () =>
        this.send({
          type: 'conversation_initiation_client_data',
          source_info: { source: 'parla_widget', version: '1' },
        });
      socket.onmessage = (event) => this.receive(JSON.parse(event.data), stream);
      socket.onclose = (event) => {
        const normal = event.code === 1000;
        this.stopAudio(stream);
        this.socket = null;
        this.$('.call').textContent = this.config?.start_call_text || 'Start a call';
        this.setState(normal ? 'Call ended.' : event.reason || 'The call could not go on.', !normal);
      };
    }

    async receive(message, stream) {
      switch (message.type) {
        case 'conversation_initiation_metadata': {
          const meta = message.conversation_initiation_metadata_event;
          this.outputUlaw = meta.agent_output_audio_format.startsWith('ulaw');
          this.outputRate = Number(meta.agent_output_audio_format.split('_')[1]) || 16000;
          this.inputFormat = meta.user_input_audio_format || 'pcm_16000';
          this.setState(this.config?.listening_text || 'Listening…');
          if (this.config?.text_input_enabled !== false) this.$('.text').classList.remove('hidden');
          if (stream) await this.startMicrophone(stream);
          break;
        }
        case 'audio': {
          const audio = message.audio_event;
          if (audio.event_id < this.interruptedBelow) break;
          this.play(pcmFromBase64(audio.audio_base_64, this.outputUlaw));
          break;
        }
        case 'agent_response':
          this.say('agent', message.agent_response_event.agent_response);
          break;
        case 'user_transcript':
          this.say('user', message.user_transcription_event.user_transcript);
          break;
        case 'interruption':
          this.interruptedBelow = message.interruption_event.event_id;
          this.stopPlayback();
          break;
        case 'ping':
          this.send({ type: 'pong', event_id: message.ping_event.event_id });
          break;
        case 'client_tool_call': {
          const call = message.client_tool_call;
          this.send({
            type: 'client_tool_result',
            tool_call_id: call.tool_call_id,
            result: `The page has no client tool named ${call.tool_name}.`,
            is_error: true,
          });
          break;
        }
        case 'error':
          this.setState(message.error_event?.message || 'The conversation failed.', true);
          break;
        default:
          break;
      }
    }

    async startMicrophone(stream) {
      this.context ??= new AudioContext();
      const capture = new AudioContext();
      this.capture = capture;
      const source = capture.createMediaStreamSource(stream);
      const ulaw = this.inputFormat.startsWith('ulaw');
      const rate = Number(this.inputFormat.split('_')[1]) || 16000;
      const resample = createResampler(capture.sampleRate, rate);
      // ScriptProcessor is deprecated but needs no second file; 2048 samples is 43 ms at 48 kHz.
      const node = capture.createScriptProcessor(2048, 1, 1);
      node.onaudioprocess = (event) => {
        const samples = resample(event.inputBuffer.getChannelData(0));
        if (samples.length) this.send({ user_audio_chunk: base64FromPcm(samples, ulaw) });
      };
      source.connect(node);
      node.connect(capture.destination);
    }

    play(samples) {
      const context = this.context ?? new AudioContext();
      this.context = context;
      const buffer = context.createBuffer(1, samples.length, this.outputRate);
      buffer.copyToChannel(samples, 0);
      const source = context.createBufferSource();
      source.buffer = buffer;
      source.connect(context.destination);
      const at = Math.max(context.currentTime + 0.05, this.playAt);
      source.start(at);
      this.playAt = at + buffer.duration;
      this.sources.add(source);
      this.$('.orb').classList.add('speaking');
      this.setState(this.config?.speaking_text || 'Speaking…');
      source.onended = () => {
        this.sources.delete(source);
        if (this.sources.size === 0) {
          this.$('.orb').classList.remove('speaking');
          if (this.socket) this.setState(this.config?.listening_text || 'Listening…');
        }
      };
    }

    stopPlayback() {
      for (const source of this.sources) source.stop();
      this.sources.clear();
      this.playAt = 0;
    }

    stopAudio(stream) {
      this.stopPlayback();
      for (const track of stream?.getTracks() ?? []) track.stop();
      this.capture?.close();
      this.capture = null;
    }

    hangUp() {
      this.socket?.close(1000, 'User ended conversation');
    }
  }

  customElements.define('parla-convai', ParlaConvai);
})();
