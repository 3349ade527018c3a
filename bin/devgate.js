#!/usr/bin/env node
// The `devgate` command of an installed package: runs the built CLI.
import '../dist/cli.js';
