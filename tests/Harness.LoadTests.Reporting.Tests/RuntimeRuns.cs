using Harness.LoadTests.Recording;
using Harness.Metrics;

namespace Harness.LoadTests.Reporting.Tests;

/// <summary>
/// Hand-made runs whose seconds carry the target's .NET runtime figures, as the runner records them (attached over
/// EventPipe, or read from /metrics into the contract's names). Every figure a test checks follows from these values.
/// </summary>
internal static class RuntimeRuns
{
    public const int WarmUpSeconds = 5;

    public const int Seconds = 60;

    public static string Adjustments(string reason) =>
        MetricNames.WithLabel(MetricNames.RuntimeThreadPoolAdjustmentsTotal, MetricNames.ReasonLabel, reason);

    /// <summary>
    /// A starved ThreadPool: 3 threads injected for starvation during the warm-up (left out), then one a second in
    /// seconds 10–45 and one more at 50: 37 threads over 41 s. The queue holds 5 items in seconds 12–49 (38 s) and
    /// during the warm-up. The thread count is 8 plus the threads injected; a climbing move every 10 s.
    /// </summary>
    public static SeriesInfo Starved(List<SecondSample> samples, string mode = "threadpool") => Starved(samples, mode, "starvation");

    /// <summary>As <see cref="Starved(List{SecondSample}, string)"/>, with the injections' adjustments under <paramref name="reason"/>.</summary>
    public static SeriesInfo Starved(List<SecondSample> samples, string mode, string reason)
    {
        var injected = 0;
        for (var s = 0; s < Seconds; s++)
        {
            injected += s is >= 1 and <= 3 or (>= 10 and <= 45) or 50 ? 1 : 0;
            var queue = s < WarmUpSeconds || s is >= 12 and <= 49 ? 5 : 0;
            var server = Runtime(8 + injected, queue, starvationThreads: injected);
            server[Adjustments(reason)] = injected;
            server[Adjustments("climbing_move")] = s / 10;
            samples.Add(Second(s, server));
        }

        return Info(mode);
    }

    /// <summary>A pool that never starved: steady threads, an empty queue but for seconds 20–22, climbing moves only.</summary>
    public static SeriesInfo Healthy(List<SecondSample> samples, string mode = "iocp")
    {
        for (var s = 0; s < Seconds; s++)
        {
            var server = Runtime(6, s is >= 20 and <= 22 ? 2 : 0, starvationThreads: 0);
            server[Adjustments("climbing_move")] = s / 10;
            samples.Add(Second(s, server));
        }

        return Info(mode);
    }

    /// <summary>
    /// As prometheus-net.DotNetRuntime gives it, read into the contract's names: the thread count and the adjustments by
    /// reason, no queue length and no count of threads. Starvation adjustments at seconds 20, 21, 22 and a cooperative
    /// blocking one at 30 (4 over 11 s).
    /// </summary>
    public static SeriesInfo AdjustmentsOnly(List<SecondSample> samples, string mode = "custompool") => AdjustmentsOnly(samples, mode, starved: true);

    /// <summary>As <see cref="AdjustmentsOnly(List{SecondSample}, string)"/>, with no starvation adjustment when <paramref name="starved"/> is false: blocked waits alone.</summary>
    public static SeriesInfo AdjustmentsOnly(List<SecondSample> samples, string mode, bool starved)
    {
        int starvation = 0, blocking = 0;
        for (var s = 0; s < Seconds; s++)
        {
            starvation += starved && s is 20 or 21 or 22 ? 1 : 0;
            blocking += s == 30 ? 1 : 0;
            var server = Server(mode);
            server[MetricNames.RuntimeThreadPoolThreads] = 10 + starvation + blocking;
            server[Adjustments("starvation")] = starvation;
            server[Adjustments("cooperative_blocking")] = blocking;
            samples.Add(Second(s, server));
        }

        return Info(mode);
    }

    /// <summary>Only the System.Runtime meter over /metrics: threads and queue, nothing that counts injections.</summary>
    public static SeriesInfo GaugesOnly(List<SecondSample> samples, string mode = "threadpool")
    {
        for (var s = 0; s < Seconds; s++)
        {
            var server = Server(mode);
            server[MetricNames.RuntimeThreadPoolThreads] = 8 + (s / 2);
            server[MetricNames.RuntimeThreadPoolQueueLength] = s >= 30 ? 12 : 0;
            samples.Add(Second(s, server));
        }

        return Info(mode);
    }

    /// <summary>Our own services' figures only: no runtime ones.</summary>
    public static SeriesInfo Plain(List<SecondSample> samples, string mode = "threadpool")
    {
        for (var s = 0; s < Seconds; s++)
        {
            samples.Add(Second(s, Server(mode)));
        }

        return Info(mode);
    }

    public static RunData Run(params Func<List<SecondSample>, SeriesInfo>[] series) =>
        Runs.Run(series.Select(build =>
        {
            var samples = new List<SecondSample>();
            var info = build(samples);
            return (info, (IReadOnlyList<SecondSample>)samples);
        }));

    private static SeriesInfo Info(string mode) => Runs.Series("grpc", "compute", mode, idealLatencyMs: 100) with { WarmUpSeconds = WarmUpSeconds };

    private static Dictionary<string, double> Runtime(double threads, double queue, double starvationThreads)
    {
        var server = Server("threadpool");
        server[MetricNames.RuntimeThreadPoolThreads] = threads;
        server[MetricNames.RuntimeThreadPoolQueueLength] = queue;
        server[MetricNames.RuntimeThreadPoolStarvationThreadsTotal] = starvationThreads;
        return server;
    }

    private static Dictionary<string, double> Server(string mode) => Runs.Server(mode, 20, 1, 0, 1, 1000, 100);

    private static SecondSample Second(int second, Dictionary<string, double> server) =>
        Runs.Sample(second, 4, Runs.Histogram((120_000, 30)), server: server);
}
