/** The client library's TypeScript source, for the SDK tests (jest.config.js maps its `./x.js` imports). */
export * from '../../clients/typescript/src/index';
