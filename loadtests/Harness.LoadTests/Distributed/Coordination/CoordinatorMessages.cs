using System.Text.Json;

namespace Harness.LoadTests.Distributed.Coordination;

/// <summary>
/// What agents and the coordinator say to each other: JSON over HTTP/1.1, under <c>/v1/</c>. Every answer to an
/// agent that must stop (another agent is missing, the run was refused) is 409 with an <see cref="ErrorAnswer"/>.
/// </summary>
internal static class CoordinatorRoutes
{
    public const string Clock = "/v1/clock";
    public const string Register = "/v1/register";
    public const string Meet = "/v1/meet";
    public const string Started = "/v1/started";
    public const string Heartbeat = "/v1/heartbeat";
    public const string Leave = "/v1/leave";
    public const string Health = "/healthz";

    /// <summary>PUT the agent's run folder as a tar stream; the agent's exit code in <see cref="ExitCodeHeader"/>.</summary>
    public static string Run(int index) => FormattableString.Invariant($"/v1/runs/{index}");

    public const string ExitCodeHeader = "Harness-Exit-Code";

    public static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web);
}

/// <param name="UtcTicks">The coordinator's clock, UTC ticks.</param>
internal sealed record ClockAnswer(long UtcTicks);

/// <summary>An agent ready to run: how many agents it was started as one of, its index if it knows it, and its plan.</summary>
/// <param name="Index">Null: the coordinator gives it the lowest free index (compose's <c>--scale</c> replicas cannot be told one).</param>
/// <param name="Series">The ids of the series it will run, in order; every agent must run the same.</param>
/// <param name="Profile">The profile's name and time scale, so agents of different runs are not joined.</param>
/// <param name="Feed">Its <c>--data-feed</c> as <see cref="AgentFeed.Describe"/> gives it (content, order, seed); null for none.</param>
internal sealed record RegisterRequest(int? Index, int Count, string Machine, IReadOnlyList<string> Series, string Profile, string? Feed = null);

/// <param name="HeartbeatSeconds">How often the agent must be heard from; silent for <see cref="CoordinatorState.SilenceLimit"/>, it is taken for dead.</param>
internal sealed record RegisterAnswer(int Index, string RunId, double HeartbeatSeconds);

/// <summary>An agent at a meeting (<c>start</c>, or before a series), with its latest clock measurement.</summary>
internal sealed record MeetRequest(int Index, string Phase, double OffsetMs, double RoundTripMs);

/// <summary>Null <paramref name="StartUtcTicks"/>: not everyone is there yet, ask again.</summary>
/// <param name="StartUtcTicks">When every agent starts, by the coordinator's clock.</param>
internal sealed record MeetAnswer(long? StartUtcTicks);

/// <summary>When the agent actually started the phase, by the coordinator's clock (its own plus its offset).</summary>
internal sealed record StartedRequest(int Index, string Phase, long StartedUtcTicks);

internal sealed record HeartbeatRequest(int Index);

/// <summary>The agent ends with no run to upload, and why.</summary>
internal sealed record LeaveRequest(int Index, int ExitCode, string Reason);

internal sealed record ErrorAnswer(string Error);
