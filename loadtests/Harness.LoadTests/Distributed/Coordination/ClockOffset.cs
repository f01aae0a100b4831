namespace Harness.LoadTests.Distributed.Coordination;

/// <summary>
/// How far an agent's clock is from the coordinator's, measured by round trips as NTP does: for a request sent at
/// local time t0 and answered at t1 with the coordinator's time T, the offset is T − (t0 + t1) / 2, within ± half the
/// round trip. Of several samples the one with the shortest round trip is the most precise, so the agents need no
/// synchronised clocks, only a network whose round trip is short against a second.
/// </summary>
/// <param name="Offset">Coordinator time minus agent time: add it to a local time to get the coordinator's.</param>
/// <param name="RoundTrip">The round trip of the sample it came from; the offset is known within half of it.</param>
internal readonly record struct ClockOffset(TimeSpan Offset, TimeSpan RoundTrip)
{
    /// <summary>One round trip: sent at <paramref name="sent"/>, answered at <paramref name="received"/> (local clock), the coordinator's clock reading <paramref name="remote"/>.</summary>
    public static ClockOffset FromSample(DateTimeOffset sent, DateTimeOffset remote, DateTimeOffset received)
    {
        var roundTrip = received - sent;
        if (roundTrip < TimeSpan.Zero)
        {
            // The local clock stepped back between the two readings; the sample says nothing.
            roundTrip = TimeSpan.MaxValue;
        }

        var midpoint = sent + ((received - sent) / 2);
        return new ClockOffset(remote - midpoint, roundTrip);
    }

    /// <summary>The sample with the shortest round trip.</summary>
    public static ClockOffset Best(IEnumerable<ClockOffset> samples) => samples.MinBy(s => s.RoundTrip);

    /// <summary>The coordinator's time for local time <paramref name="local"/>.</summary>
    public DateTimeOffset ToCoordinator(DateTimeOffset local) => local + Offset;

    /// <summary>The local time for the coordinator's <paramref name="remote"/>.</summary>
    public DateTimeOffset ToLocal(DateTimeOffset remote) => remote - Offset;
}
