export * from './prosody';
export * from './speakers';
export * from './voice-profile';
export * from './wav';
export * from './yin';
