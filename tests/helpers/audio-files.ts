/**
 * Small audio files made in the test, so no recording ships with the repository: a real WAV
 * (16-bit mono PCM, a sine tone), and the first bytes of an MP3 and an Ogg Opus file, which are
 * what the server reads to tell a type.
 */

/** A WAV of `seconds` of a 440 Hz tone at 8 kHz: 16,000 bytes of samples a second. */
export function createWav(seconds: number): Uint8Array {
  const sampleRate = 8000;
  const samples = Math.round(seconds * sampleRate);
  const bytes = new Uint8Array(44 + samples * 2);
  const view = new DataView(bytes.buffer);
  const text = (offset: number, value: string) => {
    for (let index = 0; index < value.length; index++) {
      view.setUint8(offset + index, value.charCodeAt(index));
    }
  };
  text(0, "RIFF");
  view.setUint32(4, 36 + samples * 2, true);
  text(8, "WAVE");
  text(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, "data");
  view.setUint32(40, samples * 2, true);
  for (let index = 0; index < samples; index++) {
    const value = Math.sin((2 * Math.PI * 440 * index) / sampleRate) * 0.3 * 0x7fff;
    view.setInt16(44 + index * 2, Math.round(value), true);
  }
  return bytes;
}

/** MPEG-1 Layer III frame headers (128 kbit/s, 44.1 kHz), silent frames of 417 bytes. */
export function createMp3Frames(frames: number): Uint8Array {
  const frameLength = 417;
  const bytes = new Uint8Array(frames * frameLength);
  for (let frame = 0; frame < frames; frame++) {
    bytes.set([0xff, 0xfb, 0x90, 0x64], frame * frameLength);
  }
  return bytes;
}

/** An Ogg page whose first packet is an Opus identification header ('OpusHead'). */
export function createOggOpusHeader(): Uint8Array {
  const bytes = new Uint8Array(4096);
  bytes.set(new TextEncoder().encode("OggS"), 0);
  bytes[5] = 0x02; // beginning of stream
  bytes[26] = 1; // one segment
  bytes[27] = 19; // of 19 bytes
  bytes.set(new TextEncoder().encode("OpusHead"), 28);
  bytes[36] = 1; // version
  bytes[37] = 1; // one channel
  return bytes;
}
