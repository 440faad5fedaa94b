using BenchmarkDotNet.Running;

// Every benchmark class in this assembly is reachable by filter:
//   dotnet run -c Release --project benchmarks/CacheSerializer.Benchmarks -- --filter '*'
// The memcached client against memcaslap (a console load run, not BenchmarkDotNet): -- client-vs-memcaslap [seconds] [rounds]
if (CacheSerializer.Benchmarks.Memcached.ClientVsMemcaslap.TryRun(args))
{
    return;
}

BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
