export * from './names.js';
export * from './requests.js';
export * from './responses.js';
