export * from './voice-profile';
export * from './wav';
export * from './yin';
