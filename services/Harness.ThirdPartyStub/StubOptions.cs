namespace Harness.ThirdPartyStub;

/// <summary>The <c>Stub</c> configuration section.</summary>
public sealed class StubOptions
{
    public const string SectionName = "Stub";

    /// <summary>Delay used when a request gives no <c>ms</c> (env <c>Stub__DefaultDelayMs</c>); 4 s, the third party's wait in experiment S2 (docs/experiments.md).</summary>
    public int DefaultDelayMs { get; set; } = 4000;

    /// <summary>Longest delay a request may ask for (env <c>Stub__MaxDelayMs</c>).</summary>
    public int MaxDelayMs { get; set; } = 600_000;
}
