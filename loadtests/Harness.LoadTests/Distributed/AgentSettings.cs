using System.Globalization;
using System.Text.RegularExpressions;
using Harness.LoadTests.Distributed.Coordination;
using Harness.LoadTests.Engine;
using Harness.LoadTests.Running;

namespace Harness.LoadTests.Distributed;

/// <summary>
/// This process's part in a distributed run (<c>harness run --agent I/N</c>): agent <see cref="Index"/> of
/// <see cref="Count"/>, every agent of the run sharing <see cref="RunId"/>. Agent 0 is the lead: only it scrapes the
/// services' /metrics (N agents would read the same counters N times) and calibrates the ideal lines.
/// </summary>
/// <param name="Coordinator">The coordinator the agents meet at before the run and before every series.</param>
internal sealed partial record AgentSettings(int Index, int Count, string RunId, CoordinatorClient Coordinator) : ILoadShare, ISeriesGate
{
    /// <summary>Agent 0; with no agents (<c>Agent</c> null) the run itself does what the lead does.</summary>
    public bool IsLead => Index == 0;

    /// <summary>Only the lead reads the services' /metrics.</summary>
    public bool Scrapes => IsLead;

    /// <summary>
    /// Only the lead makes the lone calls that measure the ideal lines (N agents at once would not be alone); the
    /// others wait for it at the next series' meeting.
    /// </summary>
    public bool Calibrates => IsLead;

    /// <summary>The agent's run folder under <c>--output</c>: <c>agent-I-of-N</c>.</summary>
    public string FolderName => Name(Index, Count);

    /// <summary>The run's <c>agents</c> entry: <c>agent-I-of-N@machine</c>; <c>harness merge</c> reads the index and count back from it.</summary>
    public string Label(string machine) => $"{FolderName}@{machine}";

    /// <summary>The agent's part of the stages (<see cref="AgentShare"/>).</summary>
    public IReadOnlyList<LoadSimulation> Share(IReadOnlyList<LoadSimulation> stages) => AgentShare.Of(stages, Index, Count);

    /// <summary>Before each series (after the lead's calibration): the agents meet again, so every series starts in the same second on all of them.</summary>
    public Task BeforeSeriesAsync(int seriesIndex, string seriesId, CancellationToken cancellationToken) =>
        Coordinator.MeetAsync(CoordinatorState.SeriesPhase(seriesIndex, seriesId), cancellationToken);

    public static string Name(int index, int count) => string.Create(CultureInfo.InvariantCulture, $"agent-{index}-of-{count}");

    /// <summary>Reads <c>agent-I-of-N</c> (a folder name, or the start of an <c>agents</c> entry); null when it is not one.</summary>
    public static (int Index, int Count)? Parse(string text)
    {
        var match = NamePattern().Match(text);
        return match.Success
            && int.TryParse(match.Groups[1].ValueSpan, NumberStyles.None, CultureInfo.InvariantCulture, out var index)
            && int.TryParse(match.Groups[2].ValueSpan, NumberStyles.None, CultureInfo.InvariantCulture, out var count)
            && index < count
            ? (index, count)
            : null;
    }

    [GeneratedRegex(@"^agent-(\d{1,6})-of-(\d{1,6})(?:@|$)", RegexOptions.CultureInvariant)]
    private static partial Regex NamePattern();
}
