import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The console is built into dist/console, which the service serves at /. `npx vite --config
// console/vite.config.ts` serves it with hot reload, passing /api to a service on port 3000.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: '../dist/console',
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: true,
  },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
});
