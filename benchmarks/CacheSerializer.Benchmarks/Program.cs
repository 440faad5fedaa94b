using BenchmarkDotNet.Running;

// Every benchmark class in this assembly is reachable by filter:
//   dotnet run -c Release --project benchmarks/CacheSerializer.Benchmarks -- --filter '*'
BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
