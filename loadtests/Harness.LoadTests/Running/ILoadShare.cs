using Harness.LoadTests.Engine;

namespace Harness.LoadTests.Running;

/// <summary>
/// This run as one part of several that load the same services together (an agent of a distributed run: Distributed/).
/// The run asks it only what changes for a part: its id and folder, its share of the stages, and whether it is the one
/// that scrapes and calibrates; with none (<c>RunOptions.Agent</c> null) the run is whole.
/// </summary>
internal interface ILoadShare
{
    /// <summary>The id every part of the run shares.</summary>
    string RunId { get; }

    /// <summary>This part's run folder under <c>--output</c>, and its name in the run's figures.</summary>
    string FolderName { get; }

    /// <summary>Only one part reads the services' /metrics (N parts would read the same counters N times).</summary>
    bool Scrapes { get; }

    /// <summary>Only one part makes the lone calls that measure the ideal lines (N parts at once would not be alone).</summary>
    bool Calibrates { get; }

    /// <summary>The run's <c>agents</c> entry for this part on <paramref name="machine"/>.</summary>
    string Label(string machine);

    /// <summary>This part's share of <paramref name="stages"/>.</summary>
    IReadOnlyList<LoadSimulation> Share(IReadOnlyList<LoadSimulation> stages);
}

/// <summary>What a series waits for before its load starts: the other parts of the run, so every series starts together.</summary>
internal interface ISeriesGate
{
    Task BeforeSeriesAsync(int seriesIndex, string seriesId, CancellationToken cancellationToken);
}
