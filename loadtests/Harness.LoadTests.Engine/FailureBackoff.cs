namespace Harness.LoadTests.Engine;

/// <summary>
/// How long a closed-model copy waits after a connection failure before its next request: <paramref name="Initial"/>
/// after the first, doubling with each further consecutive connection failure up to <paramref name="Max"/>, each wait
/// shortened by up to 20 % at random so that copies do not retry in lockstep. Any other result ends the streak.
/// </summary>
/// <remarks>
/// Without it a copy whose connection is refused fails again at once, so an outage is recorded as a flood of
/// near-instant failures rather than as the time it lasted, and the flood loads the machine that measures it.
/// </remarks>
public sealed record FailureBackoff(TimeSpan Initial, TimeSpan Max)
{
    /// <summary>Most that jitter takes off a wait, as a fraction of it.</summary>
    internal const double Jitter = 0.2;

    /// <summary>The wait after the <paramref name="consecutiveFailures"/>-th connection failure in a row (1 = the first).</summary>
    /// <param name="random">A number in [0, 1) that picks the jitter.</param>
    internal TimeSpan WaitAfter(int consecutiveFailures, double random)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(consecutiveFailures, 1);

        // In doubles, so that a long streak saturates at Max instead of overflowing.
        var ticks = Math.Min(Max.Ticks, Initial.Ticks * Math.Pow(2, consecutiveFailures - 1));
        return TimeSpan.FromTicks((long)(ticks * (1 - (Jitter * random))));
    }
}
