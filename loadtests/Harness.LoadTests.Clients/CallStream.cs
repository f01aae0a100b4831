namespace Harness.LoadTests.Clients;

/// <summary>What one streaming call carried: the runner turns it into the engine's stream figures.</summary>
/// <param name="MessagesSent">Request messages written.</param>
/// <param name="MessagesReceived">Reply messages read.</param>
/// <param name="FirstMessage">From the call's start to its first reply message; null when none came.</param>
/// <param name="MessageGaps">Between consecutive reply messages: at most 65,536, a longer stream keeping its first gaps and its count.</param>
public sealed record CallStream(long MessagesSent, long MessagesReceived, TimeSpan? FirstMessage, IReadOnlyList<TimeSpan> MessageGaps);
