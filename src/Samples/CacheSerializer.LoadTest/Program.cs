using CacheSerializer.LoadTest.Cli;

// The README's main command (scripts/loadtest.sh): see docs/loadtest.md, or run with --help.
return await LoadTestCommand.Create().Parse(args).InvokeAsync().ConfigureAwait(false);
