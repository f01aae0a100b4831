using System.Globalization;
using System.Net;
using System.Net.Http.Json;
using Harness.LoadTests.Profiles;

namespace Harness.LoadTests.Distributed.Coordination;

/// <summary>
/// An agent's side of the coordinator: registering (retried until the coordinator answers, since on a cluster the
/// agents may start before it), meetings with the clock offset measured afresh before each, heartbeats while the
/// run lasts, and the upload of the finished run folder.
/// </summary>
internal sealed class CoordinatorClient : IAsyncDisposable
{
    /// <summary>Round trips per clock measurement; the shortest is used.</summary>
    private const int ClockSamples = 5;

    /// <summary>How long a coordinator that answered before may stay silent before the agent gives up on it.</summary>
    private static readonly TimeSpan Unreachable = TimeSpan.FromSeconds(60);

    private static readonly TimeSpan Retry = TimeSpan.FromSeconds(2);

    private readonly HttpClient _http;
    private readonly Action<string> _say;
    private CancellationTokenSource? _heartbeats;
    private Task _heartbeating = Task.CompletedTask;
    private int _index = -1;

    public CoordinatorClient(Uri address, Action<string> say, HttpMessageHandler? handler = null)
    {
        _http = new HttpClient(handler ?? new SocketsHttpHandler { PooledConnectionIdleTimeout = TimeSpan.FromSeconds(30) })
        {
            BaseAddress = address,
            // Longer than the coordinator's long poll (20 s).
            Timeout = TimeSpan.FromSeconds(45),
        };
        _say = say;
    }

    public Uri Address => _http.BaseAddress!;

    /// <summary>Why the coordinator aborted the run, once a heartbeat has been refused; null while it goes on.</summary>
    public string? AbortReason { get; private set; }

    /// <summary>Raised (once) when a heartbeat is refused: the run was aborted, and this agent should stop now rather than at the next meeting.</summary>
    public event Action<string>? Aborted;

    /// <summary>This agent's latest clock measurement against the coordinator.</summary>
    public ClockOffset Clock { get; private set; }

    /// <summary>
    /// Registers, retrying every 2 s while the coordinator cannot be reached, at most <paramref name="wait"/>; then
    /// starts the heartbeats.
    /// </summary>
    /// <exception cref="AgentsMissingException">The coordinator refused the agent, or did not answer within <paramref name="wait"/>.</exception>
    public async Task<RegisterAnswer> RegisterAsync(RegisterRequest request, TimeSpan wait, CancellationToken cancellationToken)
    {
        var deadline = DateTimeOffset.UtcNow + wait;
        var nextNote = DateTimeOffset.UtcNow;
        while (true)
        {
            try
            {
                using var response = await _http.PostAsJsonAsync(CoordinatorRoutes.Register, request, CoordinatorRoutes.Json, cancellationToken);
                var answer = await ReadAsync<RegisterAnswer>(response, cancellationToken);
                _index = answer.Index;
                _heartbeats = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
                _heartbeating = HeartbeatAsync(TimeSpan.FromSeconds(answer.HeartbeatSeconds), _heartbeats.Token);
                return answer;
            }
            catch (Exception ex) when (IsUnreachable(ex, cancellationToken))
            {
                if (DateTimeOffset.UtcNow >= deadline)
                {
                    throw new AgentsMissingException(
                        $"the coordinator at {Address} did not answer within {DurationJsonConverter.Format(wait)} (--agent-timeout): {ex.Message}");
                }

                if (DateTimeOffset.UtcNow >= nextNote)
                {
                    _say($"waiting for the coordinator at {Address} ({ex.Message})");
                    nextNote = DateTimeOffset.UtcNow + TimeSpan.FromSeconds(10);
                }

                await Task.Delay(Retry, cancellationToken);
            }
        }
    }

    /// <summary>
    /// Meets the other agents at <paramref name="phase"/>: measures the clock, waits until every agent has arrived,
    /// then until the agreed start by this agent's clock, and tells the coordinator when it actually started.
    /// </summary>
    /// <returns>The start, by this agent's clock.</returns>
    /// <exception cref="AgentsMissingException">The run was aborted (the message names who is missing), or the coordinator went silent.</exception>
    public async Task<DateTimeOffset> MeetAsync(string phase, CancellationToken cancellationToken)
    {
        var silentSince = (DateTimeOffset?)null;
        while (true)
        {
            try
            {
                Clock = await MeasureClockAsync(cancellationToken);
                var request = new MeetRequest(_index, phase, Clock.Offset.TotalMilliseconds, Clock.RoundTrip.TotalMilliseconds);
                using var response = await _http.PostAsJsonAsync(CoordinatorRoutes.Meet, request, CoordinatorRoutes.Json, cancellationToken);
                var answer = await ReadAsync<MeetAnswer>(response, cancellationToken);
                silentSince = null;
                if (answer.StartUtcTicks is { } ticks)
                {
                    var start = Clock.ToLocal(new DateTimeOffset(ticks, TimeSpan.Zero));
                    await WaitUntilAsync(start, cancellationToken);
                    await TellStartedAsync(phase, cancellationToken);
                    return start;
                }
            }
            catch (Exception ex) when (IsUnreachable(ex, cancellationToken))
            {
                silentSince ??= DateTimeOffset.UtcNow;
                if (DateTimeOffset.UtcNow - silentSince > Unreachable)
                {
                    throw new AgentsMissingException($"the coordinator at {Address} stopped answering at meeting '{phase}' ({ex.Message}).");
                }

                await Task.Delay(Retry, cancellationToken);
            }
        }
    }

    /// <summary>Uploads the run folder (tar), retried three times; the folder stays where it is either way.</summary>
    /// <returns>Null when it arrived; otherwise why not.</returns>
    public async Task<string?> UploadAsync(string runDirectory, int exitCode, CancellationToken cancellationToken)
    {
        string? why = null;
        for (var attempt = 1; attempt <= 3; attempt++)
        {
            try
            {
                await using var archive = RunArchive.Pack(runDirectory);
                using var content = new StreamContent(archive);
                content.Headers.ContentType = new("application/x-tar");
                using var request = new HttpRequestMessage(HttpMethod.Put, CoordinatorRoutes.Run(_index)) { Content = content };
                request.Headers.Add(CoordinatorRoutes.ExitCodeHeader, exitCode.ToString(CultureInfo.InvariantCulture));
                using var response = await _http.SendAsync(request, cancellationToken);
                if (response.IsSuccessStatusCode)
                {
                    return null;
                }

                why = await ErrorOf(response, cancellationToken);
                if (response.StatusCode != HttpStatusCode.ServiceUnavailable && (int)response.StatusCode < 500)
                {
                    return why;
                }
            }
            catch (Exception ex) when (IsUnreachable(ex, cancellationToken) || ex is IOException)
            {
                why = ex.Message;
            }

            await Task.Delay(Retry * attempt, cancellationToken);
        }

        return why;
    }

    /// <summary>Tells the coordinator this agent ends with no run to upload, so it stops the others now; best effort.</summary>
    public async Task LeaveAsync(int exitCode, string reason, CancellationToken cancellationToken)
    {
        try
        {
            using var response = await _http.PostAsJsonAsync(CoordinatorRoutes.Leave, new LeaveRequest(_index, exitCode, reason), CoordinatorRoutes.Json, cancellationToken);
        }
        catch (Exception ex) when (IsUnreachable(ex, cancellationToken))
        {
            // The coordinator notices the silence instead.
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (_heartbeats is { } heartbeats)
        {
            await heartbeats.CancelAsync();
            await _heartbeating;
            heartbeats.Dispose();
        }

        _http.Dispose();
    }

    /// <summary>Returns once this machine's clock has reached <paramref name="start"/>, never before (a timer may fire a millisecond early).</summary>
    internal static async Task WaitUntilAsync(DateTimeOffset start, CancellationToken cancellationToken)
    {
        for (var wait = start - DateTimeOffset.UtcNow; wait > TimeSpan.Zero; wait = start - DateTimeOffset.UtcNow)
        {
            await Task.Delay(wait + TimeSpan.FromMilliseconds(1), cancellationToken);
        }
    }

    private async Task<ClockOffset> MeasureClockAsync(CancellationToken cancellationToken)
    {
        var samples = new List<ClockOffset>(ClockSamples);
        for (var i = 0; i < ClockSamples; i++)
        {
            var sent = DateTimeOffset.UtcNow;
            var answer = await _http.GetFromJsonAsync<ClockAnswer>(CoordinatorRoutes.Clock, CoordinatorRoutes.Json, cancellationToken);
            var received = DateTimeOffset.UtcNow;
            samples.Add(ClockOffset.FromSample(sent, new DateTimeOffset(answer!.UtcTicks, TimeSpan.Zero), received));
        }

        return ClockOffset.Best(samples);
    }

    private async Task TellStartedAsync(string phase, CancellationToken cancellationToken)
    {
        var started = Clock.ToCoordinator(DateTimeOffset.UtcNow);
        try
        {
            using var response = await _http.PostAsJsonAsync(CoordinatorRoutes.Started, new StartedRequest(_index, phase, started.UtcTicks), CoordinatorRoutes.Json, cancellationToken);
        }
        catch (Exception ex) when (IsUnreachable(ex, cancellationToken))
        {
            // Only the report's start spread misses this agent; the run goes on.
        }
    }

    private async Task HeartbeatAsync(TimeSpan interval, CancellationToken cancellationToken)
    {
        using var timer = new PeriodicTimer(interval);
        try
        {
            while (await timer.WaitForNextTickAsync(cancellationToken))
            {
                try
                {
                    using var response = await _http.PostAsJsonAsync(CoordinatorRoutes.Heartbeat, new HeartbeatRequest(_index), CoordinatorRoutes.Json, cancellationToken);
                    if (response.StatusCode == HttpStatusCode.Conflict)
                    {
                        AbortReason = await ErrorOf(response, cancellationToken);
                        Aborted?.Invoke(AbortReason);
                        return;
                    }
                }
                catch (Exception ex) when (IsUnreachable(ex, cancellationToken))
                {
                    // The next meeting says what is wrong; a missed heartbeat alone is not a failure.
                }
            }
        }
        catch (OperationCanceledException)
        {
        }
    }

    private static async Task<T> ReadAsync<T>(HttpResponseMessage response, CancellationToken cancellationToken)
    {
        if (response.StatusCode == HttpStatusCode.Conflict)
        {
            throw new AgentsMissingException(await ErrorOf(response, cancellationToken));
        }

        if (!response.IsSuccessStatusCode)
        {
            var error = await ErrorOf(response, cancellationToken);
            throw new HttpRequestException(
                string.Create(CultureInfo.InvariantCulture, $"the coordinator answered {(int)response.StatusCode}: {error}"), null, response.StatusCode);
        }

        return await response.Content.ReadFromJsonAsync<T>(CoordinatorRoutes.Json, cancellationToken)
            ?? throw new HttpRequestException("the coordinator answered with nothing.");
    }

    private static async Task<string> ErrorOf(HttpResponseMessage response, CancellationToken cancellationToken)
    {
        var text = await response.Content.ReadAsStringAsync(cancellationToken);
        try
        {
            return System.Text.Json.JsonSerializer.Deserialize<ErrorAnswer>(text, CoordinatorRoutes.Json)?.Error ?? text;
        }
        catch (System.Text.Json.JsonException)
        {
            return text.Length > 200 ? text[..200] : text;
        }
    }

    // A refused connection, a reset, a timeout of one request, a 5xx: the coordinator may come (back). Not a 409.
    private static bool IsUnreachable(Exception ex, CancellationToken cancellationToken) =>
        !cancellationToken.IsCancellationRequested
        && ex is HttpRequestException { StatusCode: null or >= HttpStatusCode.InternalServerError } or TaskCanceledException or IOException;
}
