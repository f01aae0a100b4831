using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Running;
using BenchmarkDotNet.Toolchains.InProcess.Emit;
using Harness.Scheduling;
using Harness.Scheduling.Benchmarks;

// --burst [mode ...]  the 50 x 1 s blocking burst (default: every mode, ThreadPool first while its pool is fresh)
// --quick [BDN args]  the micro-benchmarks with a short in-process job (about a minute on 2 cores)
// anything else        passed to BenchmarkDotNet with its default job
if (args.Length > 0 && args[0] == "--burst")
{
    var modes = args.Length > 1 ? args[1..] : SchedulingOptions.ModeNames.Keys.ToArray();
    return BlockingBurst.Run(modes);
}

var quick = args.Length > 0 && args[0] == "--quick";
var config = quick
    ? DefaultConfig.Instance
        .AddJob(new Job("Quick").WithLaunchCount(1).WithWarmupCount(3).WithIterationCount(10).WithToolchain(InProcessEmitToolchain.Instance))
        .WithOptions(ConfigOptions.DisableLogFile)
    : DefaultConfig.Instance;
var rest = quick ? args[1..] : args;
if (rest.Length == 0)
{
    rest = ["--filter", "*"];
}

BenchmarkSwitcher.FromAssembly(typeof(SignalWaitBenchmarks).Assembly).Run(rest, config);
return 0;
