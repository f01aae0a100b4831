using System.Globalization;
using System.Text.RegularExpressions;

namespace Harness.LoadTests.Distributed;

/// <summary>
/// This process's part in a distributed run (<c>harness run --agent I/N</c>): agent <see cref="Index"/> of
/// <see cref="Count"/>, every agent of the run sharing <see cref="RunId"/>. Agent 0 is the lead: only it scrapes the
/// services' /metrics (N agents would read the same counters N times) and calibrates the ideal lines.
/// </summary>
/// <param name="Barrier">The shared folder the agents meet in before the run and before every series; null with <c>--start-at</c>.</param>
/// <param name="BarrierTimeout">How long an agent waits at a meeting for the others before the run fails.</param>
internal sealed partial record AgentSettings(int Index, int Count, string RunId, string? Barrier, TimeSpan BarrierTimeout)
{
    /// <summary>Agent 0; with no agents (<c>Agent</c> null) the run itself does what the lead does.</summary>
    public bool IsLead => Index == 0;

    /// <summary>Only the lead reads the services' /metrics.</summary>
    public bool Scrapes => IsLead;

    /// <summary>
    /// Only the lead makes the lone calls that measure the ideal lines (N agents at once would not be alone), and only
    /// with a barrier, where the others wait for it before each series; with <c>--start-at</c> its series would start
    /// seconds after theirs, so no agent calibrates and the report has no ideal lines.
    /// </summary>
    public bool Calibrates => IsLead && Barrier is not null;

    /// <summary>The agent's run folder under <c>--output</c>: <c>agent-I-of-N</c>.</summary>
    public string FolderName => Name(Index, Count);

    /// <summary>The run's <c>agents</c> entry: <c>agent-I-of-N@machine</c>; <c>harness merge</c> reads the index and count back from it.</summary>
    public string Label(string machine) => $"{FolderName}@{machine}";

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
