using System.Diagnostics;
using System.Globalization;
using Harness.LoadTests.Clients;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Scenarios;

namespace Harness.LoadTests.Running;

/// <summary>The ideal lines of a series, and how each was found (<see cref="SeriesInfo.IdealMethod"/>).</summary>
/// <param name="LatencyMs">The best latency possible, the floor of the mean; null when none could be measured.</param>
/// <param name="Throughput">The best throughput possible (Compute: one lone call per core), or null.</param>
internal sealed record Ideal(double? LatencyMs, double? Throughput, string? Method)
{
    public static Ideal None(string why) => new(null, null, why);
}

/// <summary>
/// The ideal lines. CallThirdParty's is known by construction: every call in parallel, each taking exactly the stub's
/// delay. Compute's is measured with lone calls <em>after</em> the series' load, on the service that load warmed: a
/// fresh service runs its first seconds of calls on unoptimised code (a Compute call of 100,000 iterations took 4.5 ms
/// of server time for the first 5 s of a run and 0.4 ms after its methods were recompiled), so lone calls before the
/// load measured a cold service, and the "ideal" came out above what the load then achieved. After the load, with the
/// service idle, the calls neither compete with the load nor warm the service at the expense of the series.
/// </summary>
internal static class Calibration
{
    /// <summary>Discarded: the first calls after a load meet its leftovers (a collection, a connection to re-open).</summary>
    private const int WarmCalls = 5;

    private const int MaxCalls = 60;
    private static readonly TimeSpan TimeBound = TimeSpan.FromSeconds(15);
    private static readonly TimeSpan QuietBound = TimeSpan.FromSeconds(30);
    private static readonly TimeSpan QuietPoll = TimeSpan.FromMilliseconds(100);

    /// <summary>The ideal known before any call: CallThirdParty's; null for Compute, which is measured after the load.</summary>
    public static Ideal? ByConstruction(string operation, OperationSettings settings)
    {
        if (operation != Operations.CallThirdParty)
        {
            return null;
        }

        var waves = settings.Parallelism == 0 ? 1 : (int)Math.Ceiling(settings.Fanout / (double)settings.Parallelism);
        return new Ideal(
            settings.DelayMs * (double)waves,
            null,
            string.Create(
                CultureInfo.InvariantCulture,
                $"by construction: {waves} wave{(waves == 1 ? "" : "s")} of calls in parallel, each the stub's {settings.DelayMs} ms"));
    }

    /// <summary>
    /// Compute's ideal, and a <c>--call</c>'s or a user scenario's: waits (bounded) until the service executes nothing, then makes lone calls
    /// (<paramref name="call"/>), one after another:
    /// <see cref="WarmCalls"/> discarded, then until the median of the last five moves less than 5 % from the five
    /// before (<see cref="StableMedian"/>), at most <see cref="MaxCalls"/> calls and <see cref="TimeBound"/>. Each call
    /// ends within <paramref name="callTimeout"/> and within what is left of the bound, so a server that never answers
    /// holds the run no longer than that.
    /// </summary>
    /// <param name="cpuBound">The call is all CPU (Compute), so cores ÷ its time is the ideal throughput; else none is given.</param>
    /// <param name="callTimeout">A call's timeout (<c>--timeout</c>): a lone call past it failed.</param>
    public static async Task<Ideal> MeasureLoneCallsAsync(
        Func<CancellationToken, Task> call, bool cpuBound, HttpClient http, Uri? metricsAddress, TimeSpan callTimeout, CancellationToken cancellationToken)
    {
        // A scenario of the user's own without a target has no counters to wait on.
        var busy = metricsAddress is null ? null : await WaitQuietAsync(http, metricsAddress, cancellationToken);
        var median = new StableMedian();
        var clock = Stopwatch.StartNew();
        var calls = 0;
        while (calls < WarmCalls + MaxCalls && clock.Elapsed < TimeBound)
        {
            var left = TimeBound - clock.Elapsed;
            var cut = left < callTimeout + BoundedCall.Grace;
            var bound = cut ? left : callTimeout + BoundedCall.Grace;
            var started = Stopwatch.GetTimestamp();
            try
            {
                await BoundedCall.RunAsync(call, bound, cancellationToken);
            }
            catch (TimeoutException) when (!cancellationToken.IsCancellationRequested && cut)
            {
                // Cut by the calibration's own bound, not by the call's timeout: too few, said below.
                break;
            }
            catch (Exception ex) when (!cancellationToken.IsCancellationRequested)
            {
                return Ideal.None($"not measured: a lone call after the load failed ({FailureStatus.Of(ex)})");
            }

            // From timestamps, not a TimeSpan, whose 100 ns ticks make a step that completes at once (a scenario of the
            // user's own may) take 0 ms.
            var callMs = (Stopwatch.GetTimestamp() - started) * 1000.0 / Stopwatch.Frequency;
            if (++calls > WarmCalls && median.Add(callMs))
            {
                break;
            }
        }

        if (median.Count < StableMedian.Window)
        {
            return Ideal.None($"not measured: {median.Count} lone calls in {TimeBound.TotalSeconds:0} s are too few");
        }

        var ms = median.Median;
        if (ms <= 0)
        {
            return Ideal.None("not measured: the lone calls took less time than the clock tells apart from none");
        }

        var method = FormattableString.Invariant(
            $"median of the last {Math.Min(median.Count, StableMedian.Window * 2)} of {median.Count} lone calls after {WarmCalls} discarded, on the service warmed by the series' load, after it")
            + (median.IsStable
                ? FormattableString.Invariant($" (stable within {StableMedian.Tolerance:P0})")
                : FormattableString.Invariant($" (not stable within {StableMedian.Tolerance:P0} by the bound)"))
            + (busy is { } executing ? FormattableString.Invariant($"; the service still ran {executing:0} operations when they began") : "");
        // Cores ÷ one call's time is a bound only for work that is all CPU; of another service's method that is not known.
        return new Ideal(ms, cpuBound ? Environment.ProcessorCount * 1000 / ms : null, method);
    }

    /// <summary>Waits until the service's /metrics shows no operation executing; returns how many were still executing when it gave up, null when quiet or unknown.</summary>
    private static async Task<double?> WaitQuietAsync(HttpClient http, Uri metricsAddress, CancellationToken cancellationToken)
    {
        var url = new Uri(metricsAddress, "/metrics");
        var clock = Stopwatch.StartNew();
        double executing;
        do
        {
            try
            {
                using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
                timeout.CancelAfter(TimeSpan.FromSeconds(2));
                var metrics = PrometheusTextParser.Parse(await http.GetStringAsync(url, timeout.Token));
                executing = metrics.Where(m => IsExecuting(m.Key) && m.Value > 0).Sum(m => m.Value);
            }
            catch (Exception ex) when (!cancellationToken.IsCancellationRequested && ex is HttpRequestException or OperationCanceledException)
            {
                return null;
            }

            if (executing == 0)
            {
                return null;
            }

            await Task.Delay(QuietPoll, cancellationToken);
        }
        while (clock.Elapsed < QuietBound);

        return executing;
    }

    private static bool IsExecuting(string key) =>
        key == "harness_operations_executing" || key.StartsWith("harness_operations_executing{", StringComparison.Ordinal);
}
