namespace Harness.Agreements;

/// <summary>One <c>CallThirdParty</c> operation: <paramref name="Fanout"/> calls of <paramref name="DelayMs"/> each.</summary>
/// <param name="Fanout">Calls this request makes (experiment S2: one request queues several work items).</param>
/// <param name="DelayMs">How long the third party (or the stand-in) takes to answer each call.</param>
/// <param name="Style">How each call waits.</param>
/// <param name="Parallelism">Most calls in flight at once (experiment S3's degree of parallelism); 0 means all of them.</param>
public sealed record ThirdPartyCallRequest(int Fanout, int DelayMs, CallStyle Style, int Parallelism = 0)
{
    public int EffectiveParallelism => Parallelism == 0 ? Fanout : Math.Min(Parallelism, Fanout);
}
