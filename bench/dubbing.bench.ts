/**
 * Dubbing (issue 29 "Performance"), on the built server as `npm start` runs it:
 * - a 60-second English video with two speakers (flite's slt, a woman's voice, and awb, a man's, taking
 *   turns) dubbed into Spanish end to end: wall time against the target of 60 s, and against the same
 *   video transcribed alone by `POST /v1/speech-to-text` in the same run (the baseline: the stage every
 *   dub starts with);
 * - the output's duration against the input's (target: within 2 %);
 * - where each dubbed segment starts in the output against its source segment (target: within 150 ms),
 *   found as the first speech onset in that speaker's own track (the `tracks_zip` render: the speaker's
 *   clips alone, no ducked background to confuse the onset);
 * - the speakers' pitch order (the higher source speaker stays higher), by the median pitch (YIN) of each
 *   speaker's track against the median pitch of the source's lines;
 * - re-dubbing one edited segment: how many clips the engines made again (counted as the clip files
 *   rewritten in the server's data folder; target: exactly 1), and the time of `dub` + a render of the mp4
 *   (target ≤ 10 s).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encodeWav, parseWav, yinPitch } from '@parla/audio';
import { unzipSync } from 'fflate';
import { fliteSpeech } from '../apps/server/src/test/test-signals';
import { sleep, startParla } from './server';

const LINES: ['slt' | 'awb', string][] = [
  ['slt', 'Good morning everyone, and welcome to the weekly meeting of the garden club.'],
  ['awb', 'Thank you. This week we have a lot to talk about, so let us begin with the roses.'],
  ['slt', 'The roses near the gate are doing well, but the ones by the wall need more sun.'],
  ['awb', 'I can move them on Saturday morning if someone brings a second pair of gloves.'],
  ['slt', 'I will bring gloves and a small spade. What about the vegetables?'],
  ['awb', 'The tomatoes are ready, and the beans will be ready next week.'],
  ['slt', 'Then we should plan a small market for the neighbours on Sunday afternoon.'],
  ['awb', 'That is a good idea. I will make a sign and put it on the fence.'],
  ['slt', 'Perfect. Is there anything else before we close the meeting?'],
  ['awb', 'Only that the water tank is almost empty, so please use the watering cans sparingly.'],
  ['slt', 'Noted. Thank you all for coming, and see you next week.'],
  ['awb', 'One more thing: the next meeting will be in the library, because the hall is closed for repairs.'],
];
const TARGET = { wallSec: 60, durationShare: 0.02, startMs: 150, redubClips: 1, redubSec: 10 };
const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
const PAUSE_SEC = 0.6;

/** ffprobe's duration of a file. */
const durationOf = (file: string) =>
  Number(
    execFileSync('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'format=duration',
      '-of',
      'csv=p=0',
      file,
    ]).toString(),
  );

/** Median of the voiced frames' pitch (YIN, 40 ms frames every 20 ms) of mono samples. */
function medianPitch(samples: Float32Array, sampleRate: number): number {
  const frame = Math.round(sampleRate * 0.04);
  const pitches: number[] = [];
  for (let at = 0; at + frame <= samples.length; at += Math.round(sampleRate * 0.02)) {
    const slice = samples.subarray(at, at + frame);
    let energy = 0;
    for (const x of slice) energy += x * x;
    if (energy / frame < 1e-4) continue;
    const f0 = yinPitch(slice, { sampleRate });
    if (f0 && f0 > 60 && f0 < 400) pitches.push(f0);
  }
  pitches.sort((a, b) => a - b);
  return pitches[Math.floor(pitches.length / 2)] ?? 0;
}

const floats = (wav: Uint8Array) => {
  const pcm = parseWav(wav);
  const out = new Float32Array(pcm.samples.length / pcm.channels);
  for (let i = 0; i < out.length; i++) out[i] = (pcm.samples[i * pcm.channels] ?? 0) / 32768;
  return { sampleRate: pcm.sampleRate, samples: out };
};

/** dBFS of the 5 ms frame at sample `at`. */
function frameDb(audio: { samples: Float32Array }, at: number, frame: number): number {
  let energy = 0;
  for (let i = at; i < at + frame; i++) energy += (audio.samples[i] ?? 0) ** 2;
  return 10 * Math.log10(energy / frame + 1e-12);
}

/**
 * Where speech rises out of silence (a 5 ms frame above −40 dBFS after 20 ms below it) near `expected`
 * (from 150 ms before to 500 ms after), or null when none does there: the speaker's previous line still
 * sounds across that span (a line that ran past its slot), so no onset of this one can be seen.
 */
function onsetNear(audio: { sampleRate: number; samples: Float32Array }, expected: number): number | null {
  const frame = Math.round(audio.sampleRate * 0.005);
  const quiet = 4;
  const start = Math.max(0, Math.floor((expected - 0.15) * audio.sampleRate));
  const end = Math.min(audio.samples.length - frame, Math.floor((expected + 0.5) * audio.sampleRate));
  let silent = 0;
  for (let at = start - quiet * frame; at <= end; at += frame) {
    if (at < 0) {
      silent += 1;
      continue;
    }
    const loud = frameDb(audio, at, frame) > -40;
    if (loud && silent >= quiet && at >= start) return at / audio.sampleRate;
    silent = loud ? 0 : silent + 1;
  }
  return null;
}

export async function run(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-dub-bench-'));
  // The two-voice source: its lines with a pause after each, and the pitch of each voice's lines.
  const parts = await Promise.all(LINES.map(([voice, text]) => fliteSpeech(voice, text)));
  const rate = parts[0]?.sampleRate ?? 16_000;
  const gap = Math.round(rate * PAUSE_SEC);
  const total = parts.reduce((n, p) => n + p.samples.length + gap, 0);
  const samples = new Int16Array(total);
  let at = 0;
  const sourcePitch: Record<string, number[]> = { slt: [], awb: [] };
  for (const [i, part] of parts.entries()) {
    samples.set(part.samples, at);
    const voice = LINES[i]?.[0] ?? 'slt';
    sourcePitch[voice]?.push(
      medianPitch(
        Float32Array.from(part.samples, (x) => x / 32768),
        rate,
      ),
    );
    at += part.samples.length + gap;
  }
  const seconds = total / rate;
  fs.writeFileSync(path.join(dir, 'speech.wav'), encodeWav({ sampleRate: rate, channels: 1, samples }));
  const video = path.join(dir, 'source.mp4');
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    `testsrc=size=320x240:rate=25:duration=${seconds.toFixed(3)}`,
    '-i',
    path.join(dir, 'speech.wav'),
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    '96k',
    '-shortest',
    '-y',
    video,
  ]);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const sltHz = median(sourcePitch.slt ?? []);
  const awbHz = median(sourcePitch.awb ?? []);
  console.log(
    `source: ${durationOf(video).toFixed(2)} s of video, ${LINES.length} lines, slt ${sltHz.toFixed(0)} Hz, awb ${awbHz.toFixed(0)} Hz`,
  );

  // Errors reach the bench's output (a failed dub logs why).
  const server = await startParla({ env: { LOG_LEVEL: 'error' } });
  const headers = { 'xi-api-key': server.apiKey };
  try {
    // Baseline: the same video transcribed alone.
    const sttForm = new FormData();
    sttForm.append('file', new Blob([fs.readFileSync(video)]), 'source.mp4');
    sttForm.append('model_id', 'parla_stt_v1');
    sttForm.append('diarize', 'true');
    let started = Date.now();
    const stt = await fetch(`${server.url}/v1/speech-to-text`, { method: 'POST', headers, body: sttForm });
    await stt.arrayBuffer();
    const sttSec = (Date.now() - started) / 1000;

    const form = new FormData();
    form.append('file', new Blob([fs.readFileSync(video)], { type: 'video/mp4' }), 'source.mp4');
    form.append('source_lang', 'en');
    form.append('target_lang', 'es');
    form.append('num_speakers', '2');
    started = Date.now();
    const created = await fetch(`${server.url}/v1/dubbing`, { method: 'POST', headers, body: form });
    if (!created.ok) throw new Error(`create: ${created.status} ${await created.text()}`);
    const { dubbing_id: id } = (await created.json()) as { dubbing_id: string };
    let status = '';
    let stages = '';
    let lastStage = '';
    for (let i = 0; i < 3000 && status !== 'dubbed' && status !== 'failed'; i++) {
      const dub = (await (await fetch(`${server.url}/v1/dubbing/${id}`, { headers })).json()) as {
        status: string;
        stage: string;
        error?: string;
      };
      status = dub.status;
      if (dub.stage !== lastStage)
        stages += `${stages ? ' → ' : ''}${dub.stage}@${((Date.now() - started) / 1000).toFixed(1)}s`;
      lastStage = dub.stage;
      if (dub.error) console.log(`error: ${dub.error}`);
      await sleep(200);
    }
    const wallSec = (Date.now() - started) / 1000;
    console.log(`stages: ${stages}`);
    console.log(
      `dub 60 s video en→es: ${wallSec.toFixed(1)} s wall (target ≤ ${TARGET.wallSec} s) ${verdict(status === 'dubbed' && wallSec <= TARGET.wallSec)}; ` +
        `baseline transcription alone ${sttSec.toFixed(1)} s (dub/transcription ${(wallSec / sttSec).toFixed(2)}×)`,
    );
    if (status !== 'dubbed') return;

    const out = path.join(dir, 'dubbed.mp4');
    fs.writeFileSync(
      out,
      Buffer.from(await (await fetch(`${server.url}/v1/dubbing/${id}/audio/es`, { headers })).arrayBuffer()),
    );
    const outSec = durationOf(out);
    const share = Math.abs(outSec - seconds) / seconds;
    console.log(
      `output duration ${outSec.toFixed(3)} s vs input ${seconds.toFixed(3)} s: ${(share * 100).toFixed(2)} % (target ≤ 2 %) ${verdict(share <= TARGET.durationShare)}`,
    );

    type Resource = {
      speaker_tracks: Record<string, { speaker_name: string; segments: string[] }>;
      speaker_segments: Record<
        string,
        { start_time: number; end_time: number; text: string; dubs: Record<string, { text?: string }> }
      >;
      renders: Record<string, { status: string; media_ref?: { url: string } }>;
    };
    const resource = async () =>
      (await (await fetch(`${server.url}/v1/dubbing/resource/${id}`, { headers })).json()) as Resource;
    const render = async (type: string) => {
      const made = (await (
        await fetch(`${server.url}/v1/dubbing/resource/${id}/render/es`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ render_type: type }),
        })
      ).json()) as { render_id: string };
      for (let i = 0; i < 600; i++) {
        const r = (await resource()).renders[made.render_id];
        if (r?.status === 'complete')
          return Buffer.from(await (await fetch(r.media_ref?.url ?? '', { headers })).arrayBuffer());
        if (r?.status === 'failed') throw new Error('render failed');
        await sleep(100);
      }
      throw new Error('render timed out');
    };
    const tracks = unzipSync(new Uint8Array(await render('tracks_zip')));
    const res = await resource();
    const deviations: number[] = [];
    let joined = 0;
    const trackPitch: Record<string, number> = {};
    for (const track of Object.values(res.speaker_tracks)) {
      const name = Object.keys(tracks).find(
        (f) => f.includes(track.speaker_name.replace(/\s+/g, '_')) || f.includes(track.speaker_name),
      );
      const wav = name ? tracks[name] : undefined;
      if (!wav) continue;
      const audio = floats(wav);
      trackPitch[track.speaker_name] = medianPitch(audio.samples, audio.sampleRate);
      for (const segId of track.segments) {
        const seg = res.speaker_segments[segId];
        if (!seg) continue;
        const onset = onsetNear(audio, seg.start_time);
        if (onset === null) joined += 1;
        else deviations.push(Math.abs(onset - seg.start_time) * 1000);
      }
    }
    deviations.sort((a, b) => a - b);
    const worst = deviations.at(-1) ?? Number.NaN;
    console.log(
      `segment starts: ${deviations.length} segments, median ${deviations[Math.floor(deviations.length / 2)]?.toFixed(0)} ms, worst ${worst.toFixed(0)} ms (target ≤ ${TARGET.startMs} ms) ${verdict(worst <= TARGET.startMs)}; ${joined} joined to the line before (no silence to find an onset in) [tracks: ${Object.keys(tracks).join(', ')}]`,
    );
    // Which dubbed speaker is the woman's: the track whose first segment starts first (slt speaks first).
    const ordered = Object.values(res.speaker_tracks).sort(
      (a, b) =>
        (res.speaker_segments[a.segments[0] ?? '']?.start_time ?? 0) -
        (res.speaker_segments[b.segments[0] ?? '']?.start_time ?? 0),
    );
    const first = trackPitch[ordered[0]?.speaker_name ?? ''] ?? 0;
    const second = trackPitch[ordered[1]?.speaker_name ?? ''] ?? 0;
    console.log(
      `pitch order: source slt ${sltHz.toFixed(0)} Hz > awb ${awbHz.toFixed(0)} Hz; dubbed ${ordered[0]?.speaker_name} ${first.toFixed(0)} Hz, ${ordered[1]?.speaker_name ?? '(one speaker)'} ${second.toFixed(0)} Hz ${verdict(ordered.length >= 2 && first > second)}`,
    );

    // Re-dub one edited segment: count the clip files rewritten.
    const clipsDir = path.join(server.dataDir, 'files', 'dubbing');
    const clipTimes = () => {
      const times = new Map<string, number>();
      const walk = (d: string) => {
        for (const e of fs.readdirSync(d, { withFileTypes: true })) {
          const p = path.join(d, e.name);
          if (e.isDirectory()) walk(p);
          else if (p.includes(`${path.sep}clips${path.sep}`)) times.set(p, fs.statSync(p).mtimeMs);
        }
      };
      if (fs.existsSync(clipsDir)) walk(clipsDir);
      return times;
    };
    const before = clipTimes();
    const [segId] = Object.keys(res.speaker_segments);
    started = Date.now();
    await fetch(`${server.url}/v1/dubbing/resource/${id}/segment/${segId}/es`, {
      method: 'PATCH',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Buenos días a todos, y bienvenidos a la reunión.' }),
    });
    await fetch(`${server.url}/v1/dubbing/resource/${id}/dub`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ segments: [segId], languages: ['es'] }),
    });
    await render('mp4');
    const redubSec = (Date.now() - started) / 1000;
    const after = clipTimes();
    const rewritten = [...after].filter(([file, mtime]) => before.get(file) !== mtime).length;
    console.log(
      `re-dub one edited segment: ${rewritten} of ${after.size} clips spoken again (target ${TARGET.redubClips}) ${verdict(rewritten === TARGET.redubClips)}; edit + dub + mp4 render ${redubSec.toFixed(1)} s (target ≤ ${TARGET.redubSec} s) ${verdict(redubSec <= TARGET.redubSec)}`,
    );
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
