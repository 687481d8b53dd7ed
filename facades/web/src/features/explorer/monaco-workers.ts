import EditorWorker from 'monaco-editor/esm/vs/editor/editor.worker.js?worker';
import JsonWorker from 'monaco-editor/esm/vs/language/json/json.worker.js?worker';
import GraphQLWorker from 'monaco-graphql/esm/graphql.worker.js?worker';

/**
 * The editor's web workers (GraphQL language service, JSON, the base editor), as same-origin files Vite
 * builds. graphiql ships the same lines as `graphiql/setup-workers/vite`, but `?worker` imports inside a
 * dependency break Vite's dev-server pre-bundling; in our own source Vite handles them in dev and build.
 */
(globalThis as { MonacoEnvironment?: unknown }).MonacoEnvironment = {
  getWorker(_workerId: string, label: string): Worker {
    if (label === 'json') return new JsonWorker();
    if (label === 'graphql') return new GraphQLWorker();
    return new EditorWorker();
  },
};
