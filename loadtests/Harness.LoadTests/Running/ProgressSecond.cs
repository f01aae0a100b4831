using System.Globalization;

namespace Harness.LoadTests.Running;

/// <summary>
/// One second of the current series, as the progress line prints it and <c>--live</c> plots it.
/// </summary>
/// <param name="SeriesIndex">0-based position of the series in the run.</param>
/// <param name="Second">Seconds since the series started (its one timeline, warm-up included).</param>
/// <param name="WarmUp">True while the series is warming up: <see cref="Elapsed"/> and <see cref="Total"/> are then the warm-up's.</param>
/// <param name="Elapsed">Time into the warm-up, or into the measured part once the warm-up is over.</param>
/// <param name="Total">The warm-up's planned length, or the measured part's (the profile's).</param>
/// <param name="Users">Closed model: the users the profile asks for now (its target; 0 once load has stopped); open
/// model: the arrival rate per second it asks for now. What --live charts and the telemetry's users gauge give.</param>
/// <param name="RunningUsers">Closed model: the users running now, each with at most one request in flight: the
/// target's, and those told to stop (a ramp-down, the end of load) still finishing their request. 0 in the open model.</param>
/// <param name="OpenModel">True when <paramref name="Users"/> is an arrival rate.</param>
/// <param name="RequestsPerSecond">Requests completed in the last second.</param>
/// <param name="Errors">Failed requests completed in the last second.</param>
/// <param name="P50Ms">Median of the last second's successful requests, in ms; null when none succeeded.</param>
/// <param name="P99Ms">99th percentile of the last second's successful requests, in ms; null when none succeeded.</param>
/// <param name="InFlight">Requests started and not yet complete, those the end's drain waits for included.</param>
/// <param name="Requests">Requests completed by the scenario so far.</param>
/// <param name="Failures">Failed requests of the scenario so far.</param>
/// <param name="RunLeft">Planned time left in the whole run.</param>
/// <param name="ServerThreads">The target process's OS threads as last scraped; null before the first scrape (or with no scraping). Not on the line.</param>
/// <param name="WarmUpEnd">Seconds into the series at which the measured part starts (0: no warm-up); null while a warm-up burst runs apart, whose end is not known until it has drained. Not on the line.</param>
/// <param name="Draining">The scenario's plan is over and only requests in flight remain (the engine's last reports). Not on the line.</param>
internal sealed record ProgressSecond(
    string SeriesId,
    int SeriesIndex,
    int SeriesCount,
    int Second,
    bool WarmUp,
    TimeSpan Elapsed,
    TimeSpan Total,
    int Users,
    int RunningUsers,
    bool OpenModel,
    double RequestsPerSecond,
    long Errors,
    double? P50Ms,
    double? P99Ms,
    long InFlight,
    long Requests,
    long Failures,
    TimeSpan RunLeft,
    double? ServerThreads = null,
    double? WarmUpEnd = null,
    bool Draining = false)
{
    /// <summary>
    /// The progress line, e.g. <c>[1/2 grpc-compute-iocp] 00:15/01:00:00  users 16/16  812 req/s  p50 1.2 ms  p99 4.8 ms  errors 0/s (0 of 12,180)  in flight 3  run left ~01:59:40</c>;
    /// while warming up the time is the warm-up's, after <c>warm-up</c>. <c>users R/T</c>: R running, T the profile's
    /// target (R is above T while users told to stop finish their request, and at the end while the drain waits for
    /// them); the open model has <c>arrivals N/s</c> instead, the rate asked for.
    /// </summary>
    public string ToLine() =>
        $"[{SeriesIndex + 1}/{SeriesCount} {SeriesId}] {(WarmUp ? "warm-up " : "")}{Clock(Elapsed, Total)}/{Clock(Total, Total)}  " +
        (OpenModel ? $"arrivals {Users}/s  " : $"users {RunningUsers}/{Users}  ") +
        $"{RequestsPerSecond.ToString("F0", CultureInfo.InvariantCulture)} req/s  " +
        $"p50 {Milliseconds(P50Ms)}  p99 {Milliseconds(P99Ms)}  " +
        $"errors {Errors}/s ({Failures.ToString("N0", CultureInfo.InvariantCulture)} of {Requests.ToString("N0", CultureInfo.InvariantCulture)})  " +
        $"in flight {InFlight}  run left ~{RunLeft.ToString(@"hh\:mm\:ss", CultureInfo.InvariantCulture)}";

    /// <summary>mm:ss, or hh:mm:ss when <paramref name="scale"/> reaches an hour, so an hour's total is not shown as its minutes.</summary>
    internal static string Clock(TimeSpan value, TimeSpan scale)
    {
        var whole = TimeSpan.FromSeconds(Math.Floor(Math.Max(0, value.TotalSeconds)));
        return scale >= TimeSpan.FromHours(1)
            ? $"{(int)whole.TotalHours:00}:{whole.Minutes:00}:{whole.Seconds:00}"
            : $"{(int)whole.TotalMinutes:00}:{whole.Seconds:00}";
    }

    internal static string Milliseconds(double? ms) => ms switch
    {
        null => "–",
        < 10 => ms.Value.ToString("0.##", CultureInfo.InvariantCulture) + " ms",
        < 100 => ms.Value.ToString("0.#", CultureInfo.InvariantCulture) + " ms",
        _ => ms.Value.ToString("N0", CultureInfo.InvariantCulture) + " ms",
    };
}
