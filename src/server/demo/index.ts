export { DEMO_DEFAULTS, seedDemoDataIfEmpty } from './seed-demo-data';
