/*
 * Parla Audio Native player (issue 30 item 4). Loaded by the embed snippet on any site:
 *   <div class="parla-audio-native" data-project-id="…"></div><script src="PARLA/audio-native.js" async></script>
 * Renders in a shadow root, styled by a constructable stylesheet (CSSOM is not subject to the host page's
 * CSP style-src), plays the published audio (crossOrigin=anonymous: a CORS request the server checks
 * against the project's allowed origins), resumes where the listener left off (localStorage of the host
 * page, per project), and reports loads, plays and listened seconds with navigator.sendBeacon as
 * text/plain (no preflight). The session is a random id kept in localStorage for one sessionization
 * window; no cookie is read or written.
 */
(() => {
  const CSS = '/*AUDIO_NATIVE_CSS*/';
  const script = document.currentScript;
  const server = script?.src ? new URL(script.src).origin : location.origin;
  let sheet = null;
  const ICON_PLAY = '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M7 4.5v15l13-7.5z"/></svg>';
  const ICON_PAUSE =
    '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 4h4v16H6zM14 4h4v16h-4z"/></svg>';
  const SPEEDS = [1, 1.25, 1.5, 2, 0.75];
  const FLUSH_MS = 15000;

  function colour(value, fallback) {
    return /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(value || '') ? value : fallback;
  }
  function clock(seconds) {
    if (!Number.isFinite(seconds) || seconds < 0) seconds = 0;
    const m = Math.floor(seconds / 60);
    const s = Math.floor(seconds % 60);
    return `${m}:${s < 10 ? '0' : ''}${s}`;
  }
  function el(tag, cls, parent) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (parent) parent.appendChild(node);
    return node;
  }
  function randomId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, (b) => (b + 256).toString(16).slice(1)).join('');
  }
  function readState(key) {
    try {
      return JSON.parse(localStorage.getItem(key) || 'null') || {};
    } catch (_e) {
      return {};
    }
  }
  function writeState(key, state) {
    try {
      localStorage.setItem(key, JSON.stringify(state));
    } catch (_e) {
      /* storage blocked (private mode, sandboxed frame): the player works without resume */
    }
  }
  function styleRoot(root) {
    try {
      if (!sheet) {
        sheet = new CSSStyleSheet();
        sheet.replaceSync(CSS);
      }
      root.adoptedStyleSheets = [sheet];
    } catch (_e) {
      const link = el('link', null, root);
      link.rel = 'stylesheet';
      link.href = `${server}/audio-native.css`;
    }
  }

  function mount(host) {
    if (host.__parlaAudioNative) return;
    host.__parlaAudioNative = true;
    const id = host.getAttribute('data-project-id') || '';
    if (!/^[A-Za-z0-9_-]{1,100}$/.test(id)) return;
    const base = `${server}/v1/audio-native/${encodeURIComponent(id)}`;
    const key = `parla-an:${id}`;
    const preview = host.getAttribute('data-preview') === 'true';
    const root = host.attachShadow ? host.attachShadow({ mode: 'open' }) : host;
    styleRoot(root);

    const box = el('div', 'p', root);
    box.setAttribute('role', 'region');
    const img = el('img', 'img', box);
    img.alt = '';
    img.hidden = true;
    const button = el('button', 'b', box);
    button.type = 'button';
    button.innerHTML = ICON_PLAY;
    button.setAttribute('aria-label', 'Play');
    const meta = el('div', 'm', box);
    const title = el('div', 't', meta);
    const author = el('div', 'a', meta);
    const row = el('div', 'row', meta);
    const range = el('input', 'r', row);
    range.type = 'range';
    range.min = '0';
    range.max = '0';
    range.step = '0.1';
    range.value = '0';
    range.setAttribute('aria-label', 'Seek');
    const time = el('span', 'tm', row);
    time.textContent = '0:00';
    const speed = el('button', 's', row);
    speed.type = 'button';
    speed.textContent = '1×';
    speed.setAttribute('aria-label', 'Playback speed 1×');
    const status = el('div', 'st', meta);
    status.setAttribute('aria-live', 'polite');

    function apply(settings) {
      box.style.setProperty('--fg', colour(settings.text_color, '#000000'));
      box.style.setProperty('--bg', colour(settings.background_color, '#ffffff'));
      box.classList.toggle('sm', settings.small === true || settings.small === 'true');
      title.textContent = settings.title || '';
      author.textContent = settings.author || '';
      box.setAttribute('aria-label', `Listen: ${settings.title || 'article'}`);
      if (settings.image && /^https?:/.test(settings.image)) {
        img.src = settings.image;
        img.hidden = false;
      }
    }
    // Drawn at once from the snippet's own attributes; the config fetched below refreshes them.
    apply({
      title: host.getAttribute('data-title'),
      author: host.getAttribute('data-author'),
      small: host.getAttribute('data-small'),
      text_color: host.getAttribute('data-text-color'),
      background_color: host.getAttribute('data-background-color'),
    });

    const audio = new Audio();
    audio.crossOrigin = 'anonymous';
    audio.preload = 'metadata';
    let config = null;
    const state = readState(key);
    let session = null;
    let pending = 0;
    let lastTime = null;
    let played = false;
    let lastSaved = 0;

    function ensureSession() {
      const now = Date.now();
      const windowMs = (config?.sessionization || 30) * 60000;
      if (!session) {
        session = state.s && state.t && now - state.t <= windowMs ? state.s : randomId();
      }
      state.s = session;
      state.t = now;
      writeState(key, state);
      return session;
    }
    function beacon(type, listened) {
      // Parla's settings page previews the real player: it counts nothing.
      if (preview) return;
      const body = { type: type, session: ensureSession() };
      if (listened) body.listened = Math.round(listened * 100) / 100;
      if (type === 'load') body.page = location.origin + location.pathname;
      const data = JSON.stringify(body);
      const url = `${base}/events`;
      try {
        if (navigator.sendBeacon?.(url, new Blob([data], { type: 'text/plain' }))) return;
      } catch (_e) {
        /* fall through to fetch */
      }
      try {
        fetch(url, {
          method: 'POST',
          body: data,
          headers: { 'content-type': 'text/plain' },
          keepalive: true,
          mode: 'cors',
          credentials: 'omit',
        });
      } catch (_e) {
        /* analytics never break the player */
      }
    }
    function flush() {
      if (pending > 0.05) {
        const seconds = pending;
        pending = 0;
        beacon('progress', Math.min(seconds, 3600));
      }
    }
    function savePosition(force) {
      const now = Date.now();
      if (!force && now - lastSaved < 2000) return;
      lastSaved = now;
      state.p = audio.ended ? 0 : audio.currentTime;
      writeState(key, state);
    }
    function showTime() {
      const duration = Number.isFinite(audio.duration) ? audio.duration : config?.duration_secs || 0;
      range.max = String(duration || 0);
      range.value = String(audio.currentTime || 0);
      time.textContent = `${clock(audio.currentTime)} / ${clock(duration)}`;
    }
    function setPlaying(playing) {
      button.innerHTML = playing ? ICON_PAUSE : ICON_PLAY;
      button.setAttribute('aria-label', playing ? 'Pause' : 'Play');
    }

    button.addEventListener('click', () => {
      if (!config?.audio_url) return;
      if (audio.paused) {
        const started = audio.play();
        if (started?.catch)
          started.catch(() => {
            status.textContent = 'The audio could not be played.';
          });
      } else audio.pause();
    });
    range.addEventListener('input', () => {
      audio.currentTime = Number(range.value);
      lastTime = audio.currentTime;
      showTime();
    });
    speed.addEventListener('click', () => {
      const next = SPEEDS[(SPEEDS.indexOf(audio.playbackRate) + 1) % SPEEDS.length] || 1;
      audio.playbackRate = next;
      speed.textContent = `${next}×`;
      speed.setAttribute('aria-label', `Playback speed ${next}×`);
    });
    audio.addEventListener('loadedmetadata', () => {
      if (state.p && state.p > 0 && state.p < audio.duration - 1) audio.currentTime = state.p;
      showTime();
    });
    audio.addEventListener('play', () => {
      setPlaying(true);
      lastTime = audio.currentTime;
      if (!played) {
        played = true;
        beacon('play');
      }
    });
    audio.addEventListener('timeupdate', () => {
      // Seconds actually heard: the media clock's advance while playing (a seek is not listening).
      if (!audio.paused && lastTime !== null) {
        const delta = audio.currentTime - lastTime;
        if (delta > 0 && delta < 2 * audio.playbackRate + 0.5) pending += delta / audio.playbackRate;
      }
      lastTime = audio.currentTime;
      showTime();
      savePosition(false);
    });
    audio.addEventListener('pause', () => {
      setPlaying(false);
      savePosition(true);
      flush();
    });
    audio.addEventListener('ended', () => {
      setPlaying(false);
      savePosition(true);
      flush();
    });
    audio.addEventListener('error', () => {
      status.textContent = 'The audio could not be loaded.';
    });
    setInterval(() => {
      if (!audio.paused) flush();
    }, FLUSH_MS);
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') {
        savePosition(true);
        flush();
      }
    });
    window.addEventListener('pagehide', () => {
      savePosition(true);
      flush();
    });

    // Interactive now: the controls are live; the audio arrives with the config.
    host.setAttribute('data-ready', 'true');
    host.dispatchEvent(new CustomEvent('parla-audio-native-ready', { bubbles: true }));

    fetch(`${base}/player`, { mode: 'cors', credentials: 'omit' })
      .then((response) => {
        if (!response.ok) throw new Error(String(response.status));
        return response.json();
      })
      .then((answer) => {
        config = answer;
        // A preview shows the settings being edited (the snippet's attributes), not the saved ones.
        if (!preview) apply(answer);
        if (answer.audio_url) {
          audio.src = answer.audio_url;
          button.disabled = false;
        } else {
          button.disabled = true;
          status.textContent = 'The audio is being prepared.';
        }
        showTime();
        beacon('load');
        host.setAttribute('data-loaded', 'true');
      })
      .catch(() => {
        button.disabled = true;
        status.textContent = 'This player is not available here.';
      });
  }

  function scan() {
    const hosts = document.querySelectorAll('.parla-audio-native[data-project-id]');
    for (let i = 0; i < hosts.length; i++) mount(hosts[i]);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', scan);
  else scan();
  window.ParlaAudioNative = { scan: scan };
})();
