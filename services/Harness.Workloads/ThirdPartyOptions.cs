namespace Harness.Workloads;

/// <summary>The <c>ThirdParty</c> configuration section: where the stub listens.</summary>
public sealed class ThirdPartyOptions
{
    public const string SectionName = "ThirdParty";

    /// <summary>Base address of the third-party stub (env <c>ThirdParty__BaseAddress</c>).</summary>
    public Uri BaseAddress { get; set; } = new("http://127.0.0.1:5080/");

    /// <summary>Per-call timeout; above the largest delay a request may ask for (env <c>ThirdParty__Timeout</c>).</summary>
    public TimeSpan Timeout { get; set; } = TimeSpan.FromSeconds(100);
}
