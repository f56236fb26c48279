#!/usr/bin/env node
// The installed `switchyard` command: runs the compiled CLI (built by `npm install` through the prepare script).
import '../dist/main/cli/main.js';
