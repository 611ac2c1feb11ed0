// Preloaded into a measured child (`node --import`): prints its peak resident memory on stderr as it exits.
process.on('exit', () => process.stderr.write(`\nbench-max-rss-kib=${process.resourceUsage().maxRSS}\n`));
