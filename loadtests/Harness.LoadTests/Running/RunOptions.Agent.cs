namespace Harness.LoadTests.Running;

internal sealed partial record RunOptions
{
    /// <summary>This process's part in a distributed run (<c>harness run --agent</c>); null when it runs alone.</summary>
    public ILoadShare? Agent { get; init; }

    /// <summary>What each series waits for before its load (the other agents); null when it runs alone.</summary>
    public ISeriesGate? SeriesGate { get; init; }
}
