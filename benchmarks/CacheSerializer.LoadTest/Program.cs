using System.CommandLine;
using CacheSerializer.LoadTest.Cli;

// The README's main command (scripts/loadtest.sh): see docs/loadtest.md, or run with --help.
// Ctrl+C is handled here rather than by System.CommandLine, whose handler returns after a grace period without waiting
// for the run: the run must stop its users and its memcached servers before the process ends, however long that takes.
using var cancellation = new CancellationTokenSource();
Console.CancelKeyPress += (_, e) =>
{
    e.Cancel = true;
    cancellation.Cancel();
};

var configuration = new InvocationConfiguration { ProcessTerminationTimeout = null };
ParseResult parsed = LoadTestCommand.Create().Parse(args);
int exitCode = await parsed.InvokeAsync(configuration, cancellation.Token).ConfigureAwait(false);

// A command line that does not parse prints its errors and the help; it exits like any other invalid option.
return parsed.Errors.Count > 0 ? LoadTestCommand.InvalidOption : exitCode;
