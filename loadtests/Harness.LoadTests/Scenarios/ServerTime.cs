namespace Harness.LoadTests.Scenarios;

/// <summary>The server's own execution time, as a reply reports it (<c>ElapsedMs</c>).</summary>
internal static class ServerTime
{
    /// <summary>
    /// The reply's figure as a time, or null when it is not one (negative, NaN, infinite, beyond a day): an external
    /// target's bad number must not stop the run, and the request's own latency is measured regardless.
    /// </summary>
    public static TimeSpan? FromReply(double elapsedMs) =>
        double.IsFinite(elapsedMs) && elapsedMs is >= 0 and <= 86_400_000 ? TimeSpan.FromMilliseconds(elapsedMs) : null;
}
