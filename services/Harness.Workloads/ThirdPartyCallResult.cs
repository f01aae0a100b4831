namespace Harness.Workloads;

/// <summary>What a <c>CallThirdParty</c> operation did.</summary>
/// <param name="Calls">Calls completed (equals the fan-out on success).</param>
/// <param name="Elapsed">Wall-clock time of the whole operation inside the service.</param>
/// <param name="ThreadId">The managed thread the operation finished on.</param>
/// <param name="DistinctThreads">How many threads made the calls.</param>
public readonly record struct ThirdPartyCallResult(int Calls, TimeSpan Elapsed, int ThreadId, int DistinctThreads);
