using System.Globalization;
using Harness.LoadTests.Profiles;

namespace Harness.LoadTests.Distributed.Coordination;

/// <summary>
/// The coordinator's state, without its HTTP: who registered, the meetings (<c>start</c>, then one before each series)
/// and when each released its agents, who was last heard from when, who uploaded a run. Time comes from a
/// <see cref="TimeProvider"/> and deadlines are checked by <see cref="Check"/>, so every rule is testable alone.
/// </summary>
/// <remarks>
/// One rule decides every failure: the first thing that makes the run unmergeable (an agent that did not register
/// or come to a meeting within the agent timeout, an agent silent for <see cref="SilenceLimit"/>, an agent that left
/// without a run) aborts the run
/// with a message naming it; every agent is told at its next request, and the coordinator still accepts the uploads
/// of the agents that are alive, for <see cref="UploadGrace"/>, so nothing already recorded is lost.
/// </remarks>
internal sealed partial class CoordinatorState
{
    /// <summary>The default <see cref="SilenceLimit"/>.</summary>
    public static readonly TimeSpan DefaultSilenceLimit = TimeSpan.FromSeconds(30);

    /// <summary>Heartbeats per <see cref="SilenceLimit"/>: six missed in a row, so a GC pause or a busy node is not taken for a death.</summary>
    private const int HeartbeatsPerSilence = 6;

    /// <summary>After an abort, how long the coordinator waits for the live agents' uploads.</summary>
    public static readonly TimeSpan UploadGrace = TimeSpan.FromMinutes(2);

    /// <summary>How long after the last arrival at a meeting the agents start, at least: every agent polls and converts its clock in it.</summary>
    public static readonly TimeSpan Margin = TimeSpan.FromSeconds(1);

    private readonly Lock _lock = new();
    private readonly TimeProvider _time;
    private readonly DateTimeOffset _created;
    private readonly AgentState?[] _agents;
    private readonly Dictionary<string, Meeting> _meetings = new(StringComparer.Ordinal);
    private readonly List<string> _phases = [];
    private readonly TaskCompletionSource<CoordinationOutcome> _completion = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private RegisterRequest? _plan;
    private string? _abort;
    private DateTimeOffset _abortedAt;

    public CoordinatorState(int count, string runId, TimeSpan agentTimeout, TimeProvider time, TimeSpan? silenceLimit = null)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(count, 1);
        Count = count;
        RunId = runId;
        AgentTimeout = agentTimeout;
        SilenceLimit = silenceLimit ?? DefaultSilenceLimit;
        _time = time;
        _created = time.GetUtcNow();
        _agents = new AgentState?[count];
    }

    public int Count { get; }

    public string RunId { get; }

    public TimeSpan AgentTimeout { get; }

    /// <summary>An agent not heard from for this long is taken for dead (<c>coordinate --silence-limit</c>).</summary>
    public TimeSpan SilenceLimit { get; }

    /// <summary>How often an agent says it is alive (its meeting polls count too).</summary>
    public TimeSpan HeartbeatInterval => SilenceLimit / HeartbeatsPerSilence;

    /// <summary>Completes once every agent uploaded its run, or after an abort once the live ones did (or the grace ran out).</summary>
    public Task<CoordinationOutcome> Completion => _completion.Task;

    public DateTimeOffset Now => _time.GetUtcNow();

    /// <exception cref="CoordinationRefusedException">This agent cannot join the run; the message says why.</exception>
    public RegisterAnswer Register(RegisterRequest request)
    {
        lock (_lock)
        {
            ThrowIfAborted();
            if (request.Count != Count)
            {
                throw new CoordinationRefusedException(
                    string.Create(CultureInfo.InvariantCulture, $"{request.Machine} was started as one of {request.Count} agents, but the coordinator waits for {Count}; start every agent with --agent …/{Count}."));
            }

            if (_plan is { } plan && PlanDifference(plan, request) is { } difference)
            {
                throw new CoordinationRefusedException($"{request.Machine} {difference}; every agent of a run needs the same options.");
            }

            var index = request.Index ?? Array.FindIndex(_agents, a => a is null);
            if (index < 0)
            {
                throw new CoordinationRefusedException(
                    string.Create(CultureInfo.InvariantCulture, $"{request.Machine}: all {Count} agent indexes are taken ({Names(Enumerable.Range(0, Count))}); more agents started than --agents {Count}."));
            }

            if (index >= Count || _agents[index] is { } taken)
            {
                throw new CoordinationRefusedException(index >= Count
                    ? string.Create(CultureInfo.InvariantCulture, $"{request.Machine}: index {index} is not one of {Count} agents (0 to {Count - 1}).")
                    : string.Create(CultureInfo.InvariantCulture, $"{request.Machine}: agent {index} is already registered (by {_agents[index]!.Machine}); give each agent an index of its own."));
            }

            _plan ??= request;
            if (_phases.Count == 0)
            {
                _phases.Add(StartPhase);
                _phases.AddRange(request.Series.Select((id, i) => SeriesPhase(i, id)));
            }

            _agents[index] = new AgentState(index, request.Machine, Now);
            return new RegisterAnswer(index, RunId, HeartbeatInterval.TotalSeconds);
        }
    }

    /// <summary>
    /// The agent arrives at (or asks again about) a meeting. Returns the start once every agent has arrived, or null
    /// when <paramref name="longPoll"/> passed first (the agent asks again, which also says it is alive).
    /// </summary>
    /// <exception cref="CoordinationRefusedException">The run was aborted, or the request names no such agent or meeting.</exception>
    public async Task<DateTimeOffset?> MeetAsync(MeetRequest request, TimeSpan longPoll, CancellationToken cancellationToken)
    {
        Task<DateTimeOffset> ready;
        lock (_lock)
        {
            var agent = Heard(request.Index);
            if (!_phases.Contains(request.Phase, StringComparer.Ordinal))
            {
                throw new CoordinationRefusedException($"agent {request.Index}: '{request.Phase}' is not a meeting of this run (its meetings: {string.Join(", ", _phases)}).");
            }

            if (!_meetings.TryGetValue(request.Phase, out var meeting))
            {
                meeting = _meetings[request.Phase] = new Meeting(request.Phase, Now);
            }

            meeting.Arrive(agent.Index, Now, TimeSpan.FromMilliseconds(request.OffsetMs), TimeSpan.FromMilliseconds(request.RoundTripMs));
            if (meeting.Arrivals.Count == Count && !meeting.Ready.Task.IsCompleted)
            {
                meeting.Release(StartAfter(meeting.Arrivals.Values.Max()));
            }

            ready = meeting.Ready.Task;
        }

        var finished = await Task.WhenAny(ready, Task.Delay(longPoll, _time, cancellationToken));
        if (finished != ready)
        {
            cancellationToken.ThrowIfCancellationRequested();
            return null;
        }

        // Faulted: the run was aborted while this agent waited.
        return await ready;
    }

    /// <summary>The agent says when it actually started <see cref="StartedRequest.Phase"/>, by the coordinator's clock.</summary>
    public void Started(StartedRequest request)
    {
        lock (_lock)
        {
            Heard(request.Index, refuseWhenAborted: false);
            if (_meetings.TryGetValue(request.Phase, out var meeting))
            {
                meeting.ActualStarts[request.Index] = new DateTimeOffset(request.StartedUtcTicks, TimeSpan.Zero);
            }
        }
    }

    /// <exception cref="CoordinationRefusedException">The run was aborted: the agent should stop.</exception>
    public void Heartbeat(int index)
    {
        lock (_lock)
        {
            Heard(index);
        }
    }

    /// <summary>An upload begins: it counts as being heard from, even after an abort.</summary>
    public void Uploading(int index)
    {
        lock (_lock)
        {
            Heard(index, refuseWhenAborted: false);
        }
    }

    /// <summary>
    /// The agent ends without a run to upload (refused, interrupted, stopped before its first series): the run cannot
    /// be merged without its share, so it is aborted now rather than after the agent's silence is noticed.
    /// </summary>
    public void Left(int index, int exitCode, string reason)
    {
        lock (_lock)
        {
            var agent = Heard(index, refuseWhenAborted: false);
            agent.ExitCode = exitCode;
            agent.WithoutRun = true;
            Abort(string.Create(CultureInfo.InvariantCulture, $"agent {index} ({agent.Machine}) ended with exit code {exitCode} and no run to upload: {reason}"));
            CompleteIfDone();
        }
    }

    public void Uploaded(int index, int exitCode)
    {
        lock (_lock)
        {
            var agent = Heard(index, refuseWhenAborted: false);
            agent.ExitCode = exitCode;
            CompleteIfDone();
        }
    }

    /// <summary>Checks every deadline (call it about once a second): registration, meetings, heartbeats, the grace after an abort.</summary>
    public void Check()
    {
        lock (_lock)
        {
            var now = Now;
            var registered = _agents.Count(a => a is not null);
            if (_abort is null && registered < Count && now - _created > AgentTimeout)
            {
                Abort(string.Create(CultureInfo.InvariantCulture,
                    $"{Count - registered} of {Count} agents did not register within {DurationJsonConverter.Format(AgentTimeout)} (--agent-timeout); registered: {(registered == 0 ? "none" : Names(_agents.OfType<AgentState>().Select(a => a.Index)))}."));
            }

            foreach (var meeting in _meetings.Values.Where(m => !m.Ready.Task.IsCompleted && now - m.FirstArrival > AgentTimeout))
            {
                var missing = Enumerable.Range(0, Count).Where(i => !meeting.Arrivals.ContainsKey(i)).ToList();
                Abort($"meeting '{meeting.Phase}': {Names(missing)} of {Count} did not come within {DurationJsonConverter.Format(AgentTimeout)} (--agent-timeout) of the first arrival.");
            }

            foreach (var agent in _agents.OfType<AgentState>().Where(a => a.ExitCode is null && !a.Dead && now - a.LastHeard > SilenceLimit))
            {
                agent.Dead = true;
                Abort(string.Create(CultureInfo.InvariantCulture,
                    $"agent {agent.Index} ({agent.Machine}) stopped answering: not heard from for {(now - agent.LastHeard).TotalSeconds:F0} s (it died, or lost the network)."));
            }

            CompleteIfDone();
        }
    }

    /// <summary>One line on where the run stands: registrations, the latest meeting, uploads.</summary>
    public string Status()
    {
        lock (_lock)
        {
            var agents = _agents.OfType<AgentState>().ToList();
            var meeting = _phases.Where(_meetings.ContainsKey).Select(p => _meetings[p]).LastOrDefault();
            var at = meeting is null ? "no meeting yet"
                : meeting.Start is null ? string.Create(CultureInfo.InvariantCulture, $"meeting '{meeting.Phase}': {meeting.Arrivals.Count} of {Count} there")
                : $"running '{meeting.Phase}'";
            return string.Create(CultureInfo.InvariantCulture,
                $"{agents.Count} of {Count} agents registered, {at}, {agents.Count(a => a.ExitCode is not null)} runs uploaded{(_abort is null ? "" : "; aborted: " + _abort)}");
        }
    }

    /// <summary>Each meeting's start and, per agent, its clock offset, round trip and actual start; in meeting order.</summary>
    public IReadOnlyList<MeetingTiming> Timings()
    {
        lock (_lock)
        {
            return [.. _phases.Where(_meetings.ContainsKey).Select(p => _meetings[p]).Where(m => m.Start is not null).Select(m => new MeetingTiming(
                m.Phase,
                m.Start!.Value,
                [.. m.Clocks.OrderBy(c => c.Key).Select(c => new AgentTiming(
                    c.Key, c.Value.Offset, c.Value.RoundTrip, m.ActualStarts.TryGetValue(c.Key, out var at) ? at : null))]))];
        }
    }

    public const string StartPhase = "start";

    /// <summary>The meeting before series <paramref name="index"/> (0-based, in run order), named after it.</summary>
    public static string SeriesPhase(int index, string seriesId) => string.Create(CultureInfo.InvariantCulture, $"series-{index + 1:D3}-{seriesId}");

    /// <summary>The first whole second at least <see cref="Margin"/> after <paramref name="lastArrival"/>, in UTC.</summary>
    public static DateTimeOffset StartAfter(DateTimeOffset lastArrival)
    {
        var earliest = lastArrival.ToUniversalTime() + Margin;
        var whole = new DateTimeOffset(earliest.Ticks - (earliest.Ticks % TimeSpan.TicksPerSecond), TimeSpan.Zero);
        return whole < earliest ? whole.AddSeconds(1) : whole;
    }

    private AgentState Heard(int index, bool refuseWhenAborted = true)
    {
        if (refuseWhenAborted)
        {
            ThrowIfAborted();
        }

        if (index < 0 || index >= Count || _agents[index] is not { } agent)
        {
            throw new CoordinationRefusedException(string.Create(CultureInfo.InvariantCulture, $"agent {index} is not registered with this coordinator (run {RunId})."));
        }

        agent.LastHeard = Now;
        return agent;
    }

    private void ThrowIfAborted()
    {
        if (_abort is { } message)
        {
            throw new CoordinationRefusedException(message);
        }
    }

    private void Abort(string message)
    {
        if (_abort is not null)
        {
            return;
        }

        _abort = message;
        _abortedAt = Now;
        foreach (var meeting in _meetings.Values)
        {
            meeting.Ready.TrySetException(new CoordinationRefusedException(message));
        }
    }

    private void CompleteIfDone()
    {
        var agents = _agents.OfType<AgentState>().ToList();
        var allUploaded = agents.Count == Count && agents.All(a => a.ExitCode is not null);
        var liveUploaded = agents.All(a => a.Dead || a.ExitCode is not null);
        if (allUploaded || (_abort is not null && (liveUploaded || Now - _abortedAt > UploadGrace)))
        {
            _completion.TrySetResult(new CoordinationOutcome(
                _abort,
                [.. Enumerable.Range(0, Count).Select(i => _agents[i] is { } a ? new AgentOutcome(i, a.Machine, a.WithoutRun ? null : a.ExitCode) : new AgentOutcome(i, null, null))]));
        }
    }

    // Claimed and given indexes cannot mix: a claim could take the index an agent started later was given.
    private static string? PlanDifference(RegisterRequest plan, RegisterRequest request) =>
        (plan.Index is null) != (request.Index is null)
            ? $"was started with {(request.Index is null ? "claim/N" : "an index (I/N or env/N)")}, the first agent ({plan.Machine}) with {(plan.Index is null ? "claim/N" : "an index")}; start all agents of a run with an index, or all with claim/N"
        : plan.Profile != request.Profile ? $"runs profile {request.Profile}, the first agent ({plan.Machine}) {plan.Profile}"
        : !plan.Series.SequenceEqual(request.Series, StringComparer.Ordinal)
            ? $"runs the series {string.Join(", ", request.Series)}, the first agent ({plan.Machine}) {string.Join(", ", plan.Series)}"
        : plan.Feed != request.Feed
            ? $"has {request.Feed ?? "no --data-feed"}, the first agent ({plan.Machine}) {plan.Feed ?? "none"}; the agents share one feed's rows, so each needs the same file (a copy at any path) and, with random or shuffle, the same --data-feed-seed"
            : null;

    private static string Names(IEnumerable<int> indexes)
    {
        var list = indexes.ToList();
        return (list.Count == 1 ? "agent " : "agents ") + string.Join(", ", list);
    }

    private sealed class AgentState(int index, string machine, DateTimeOffset registeredAt)
    {
        public int Index { get; } = index;

        public string Machine { get; } = machine;

        public DateTimeOffset LastHeard { get; set; } = registeredAt;

        public bool Dead { get; set; }

        public bool WithoutRun { get; set; }

        public int? ExitCode { get; set; }
    }

    private sealed class Meeting(string phase, DateTimeOffset firstArrival)
    {
        public string Phase { get; } = phase;

        public DateTimeOffset FirstArrival { get; } = firstArrival;

        public Dictionary<int, DateTimeOffset> Arrivals { get; } = [];

        public Dictionary<int, (TimeSpan Offset, TimeSpan RoundTrip)> Clocks { get; } = [];

        public Dictionary<int, DateTimeOffset> ActualStarts { get; } = [];

        public TaskCompletionSource<DateTimeOffset> Ready { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public DateTimeOffset? Start { get; private set; }

        /// <summary>The first arrival counts; asking again (a long poll ending) only refreshes the clock reading.</summary>
        public void Arrive(int index, DateTimeOffset at, TimeSpan offset, TimeSpan roundTrip)
        {
            Arrivals.TryAdd(index, at);
            Clocks[index] = (offset, roundTrip);
        }

        public void Release(DateTimeOffset start)
        {
            Start = start;
            Ready.TrySetResult(start);
        }
    }
}

/// <summary>An agent cannot go on: the run was aborted, or this agent cannot join it. The agent is answered 409 with the message.</summary>
internal sealed class CoordinationRefusedException(string message) : Exception(message);

/// <param name="Error">Why the run was aborted; null when every agent uploaded its run.</param>
internal sealed record CoordinationOutcome(string? Error, IReadOnlyList<AgentOutcome> Agents);

/// <param name="Machine">Null: it never registered.</param>
/// <param name="ExitCode">The exit code it uploaded its run with; null: no run came from it.</param>
internal sealed record AgentOutcome(int Index, string? Machine, int? ExitCode);

internal sealed record MeetingTiming(string Phase, DateTimeOffset Start, IReadOnlyList<AgentTiming> Agents);

/// <param name="ActualStart">When the agent started, by the coordinator's clock; null when it did not say.</param>
internal sealed record AgentTiming(int Index, TimeSpan Offset, TimeSpan RoundTrip, DateTimeOffset? ActualStart);
