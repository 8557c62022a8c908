export * from './fingerprint';
export * from './g711';
export * from './prosody';
export * from './resampler';
export * from './speakers';
export * from './voice-profile';
export * from './wav';
export * from './yin';
