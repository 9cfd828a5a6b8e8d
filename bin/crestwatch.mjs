#!/usr/bin/env node
// The `crestwatch` CLI: runs the TypeScript entry through tsx.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
