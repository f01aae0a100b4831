namespace Harness.LoadTests.Reporting.Analysis;

// The target's .NET runtime in the threshold language: starvation-threads=0, starvation-threads<5 (docs/runtime.md,
// "The starvation verdict").
internal sealed partial record Threshold
{
    /// <summary>The metric's name: threads the runtime injected for ThreadPool starvation over the measured seconds.</summary>
    public const string StarvationThreadsName = "starvation-threads";

    /// <summary>The metrics that take <c>=</c>: counts, where "exactly" means something.</summary>
    private const string EqualityMetrics = "errors, " + StarvationThreadsName;

    /// <summary>
    /// Why a <c>starvation-threads</c> threshold could not be judged: the series had no runtime figures that count
    /// injections. It fails, as any figure not measured does, rather than passing a run that could not have failed.
    /// </summary>
    internal static string NoRuntimeFigures(SeriesSummary summary) => summary.Runtime is null
        ? "no runtime ThreadPool figures in this series: the runner did not attach to the target (pid=) and its /metrics gave none (docs/runtime.md)"
        : "the target's runtime figures have no thread adjustments, so they cannot say whether threads were injected for starvation: attach with pid=, or export prometheus-net.DotNetRuntime's (docs/runtime.md)";
}
