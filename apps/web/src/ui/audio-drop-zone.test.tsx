import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RecorderStatus } from '../lib/use-recorder';
import { AudioDropZone, type AudioDropZoneProps } from './audio-drop-zone';

afterEach(cleanup);

const fakeRecorder = (status: RecorderStatus = 'idle') => ({
  status,
  elapsed: 3,
  level: 0.2,
  error: null,
  start: vi.fn(async () => undefined),
  stop: vi.fn(),
  discard: vi.fn(),
});

function renderZone(props: Partial<AudioDropZoneProps> = {}) {
  const onFile = vi.fn();
  const onChooseFile = vi.fn();
  const recorder = props.recorder ?? fakeRecorder();
  render(
    <AudioDropZone
      label="Audio to convert"
      title="Drop an audio file here"
      hint={<p>MP3 or WAV</p>}
      onFile={onFile}
      onChooseFile={onChooseFile}
      recorder={recorder}
      maxRecordingSeconds={300}
      recordingUnavailable={null}
      {...props}
    />,
  );
  return { onFile, onChooseFile, recorder, zone: screen.getByRole('region', { name: 'Audio to convert' }) };
}

const file = new File(['RIFF'], 'take.wav', { type: 'audio/wav' });

describe('<AudioDropZone>', () => {
  it('takes a dropped file, marks the zone while a file is dragged over it, and opens the chooser', () => {
    const { zone, onFile, onChooseFile } = renderZone();
    fireEvent.dragEnter(zone);
    expect(zone.className).toContain('border-accent');
    fireEvent.drop(zone, { dataTransfer: { files: [file] } });
    expect(zone.className).not.toContain('border-accent');
    expect(onFile).toHaveBeenCalledWith(file);
    fireEvent.click(screen.getByRole('button', { name: 'Choose a file' }));
    expect(onChooseFile).toHaveBeenCalledOnce();
  });

  it('takes nothing while disabled', () => {
    const { zone, onFile } = renderZone({ disabled: true });
    fireEvent.drop(zone, { dataTransfer: { files: [file] } });
    expect(onFile).not.toHaveBeenCalled();
    expect((screen.getByRole('button', { name: 'Choose a file' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Record' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('says why it cannot record, as the Record button’s description', () => {
    renderZone({ recordingUnavailable: 'This browser cannot record.' });
    const record = screen.getByRole('button', { name: 'Record' }) as HTMLButtonElement;
    expect(record.disabled).toBe(true);
    expect(document.getElementById(record.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'This browser cannot record.',
    );
  });

  it('shows the recording while it runs, takes no drop, and offers Discard only when asked', () => {
    const recorder = fakeRecorder('recording');
    const { zone, onFile } = renderZone({ recorder, discardable: true });
    expect(screen.queryByRole('button', { name: 'Choose a file' })).toBeNull();
    fireEvent.drop(zone, { dataTransfer: { files: [file] } });
    expect(onFile).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Discard' }));
    expect(recorder.discard).toHaveBeenCalledOnce();
    cleanup();
    renderZone({ recorder: fakeRecorder('recording') });
    expect(screen.queryByRole('button', { name: 'Discard' })).toBeNull();
  });
});
