// Empties dist/ before a build, so that what a moved or deleted source compiled to cannot linger there and
// be packed (package.json `files` ships dist/src and dist/scenarios whole).
import { rmSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
