using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.Logging;

namespace Harness.Rpc.Grpc.Internal;

/// <summary>
/// Enforces a call's <c>grpc-timeout</c>. When it passes before the handler has finished, the client gets
/// DEADLINE_EXCEEDED at once, the stream is reset with NO_ERROR and the handler's token is canceled, as
/// grpc-dotnet's ServerCallDeadlineManager does; whatever the handler returns afterwards is dropped.
/// </summary>
internal sealed class ServerCallDeadline : IAsyncDisposable
{
    // System.Threading.Timer's largest due time; longer timeouts re-arm until the deadline is reached.
    private const long MaxTimerDueTime = uint.MaxValue - 1;
    private const int ResetStreamNoError = 0;

    private static readonly TimerCallback TimerFired = static state => ((ServerCallDeadline)state!).OnTimer();

    private readonly HttpContext _httpContext;
    private readonly ILogger _logger;
    private readonly CancellationTokenSource _cts = new();
    private readonly Lock _lock = new();
    private readonly CancellationTokenRegistration _requestAbortedRegistration;
    private readonly Timer _timer;
    private bool _callComplete;
    private TaskCompletionSource? _deadlineResponseWritten;

    public ServerCallDeadline(HttpContext httpContext, TimeSpan timeout, ILogger logger)
    {
        _httpContext = httpContext;
        _logger = logger;
        Deadline = DateTime.UtcNow + timeout;
        _requestAbortedRegistration = httpContext.RequestAborted.UnsafeRegister(static state => ((CancellationTokenSource)state!).Cancel(), _cts);

        // Created last: with a zero timeout the callback can run before the constructor returns.
        _timer = new Timer(TimerFired, this, GetDueTime(timeout), Timeout.Infinite);
    }

    public DateTime Deadline { get; }

    public CancellationToken CancellationToken => _cts.Token;

    /// <summary>
    /// Claims the response for the call's own result. False means the deadline has already answered the client
    /// and nothing more may be written.
    /// </summary>
    public bool TryCompleteCall()
    {
        lock (_lock)
        {
            if (_callComplete)
            {
                return false;
            }

            _callComplete = true;
            return true;
        }
    }

    public async ValueTask DisposeAsync()
    {
        // Waits for a running timer callback, then for the deadline response it may have started, so the
        // HttpContext is not recycled underneath it.
        await _timer.DisposeAsync();

        Task? deadlineResponse;
        lock (_lock)
        {
            deadlineResponse = _deadlineResponseWritten?.Task;
        }

        if (deadlineResponse is not null)
        {
            await deadlineResponse;
        }

        _requestAbortedRegistration.Dispose();
        _cts.Dispose();
    }

    private static long GetDueTime(TimeSpan remaining) =>
        Math.Clamp((long)Math.Ceiling(remaining.TotalMilliseconds), 0, MaxTimerDueTime);

    private void OnTimer()
    {
        var remaining = Deadline - DateTime.UtcNow;
        if (remaining.TotalMilliseconds > MaxTimerDueTime)
        {
            _timer.Change(GetDueTime(remaining), Timeout.Infinite);
            return;
        }

        var written = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        lock (_lock)
        {
            if (_callComplete)
            {
                return;
            }

            _callComplete = true;
            _deadlineResponseWritten = written;
        }

        _ = WriteDeadlineExceededAsync(written);
    }

    private async Task WriteDeadlineExceededAsync(TaskCompletionSource written)
    {
        try
        {
            GrpcServerLog.DeadlineExceeded(_logger, _httpContext.Request.Path.Value);
            GrpcProtocol.SetStatus(_httpContext.Response, GrpcStatusCode.DeadlineExceeded, "Deadline Exceeded");

            var body = _httpContext.Features.Get<IHttpResponseBodyFeature>();
            if (body is not null)
            {
                await body.CompleteAsync();
            }

            // NO_ERROR tells the client to stop sending without failing a call that already has its status.
            var reset = _httpContext.Features.Get<IHttpResetFeature>();
            if (reset is not null)
            {
                reset.Reset(ResetStreamNoError);
            }
            else
            {
                _httpContext.Abort();
            }
        }
        catch (Exception ex)
        {
            GrpcServerLog.DeadlineResponseFailed(_logger, ex);
        }

        try
        {
            _cts.Cancel();
        }
        catch (AggregateException ex)
        {
            // Thrown by the handler's own cancellation callbacks; the call is over either way.
            GrpcServerLog.DeadlineResponseFailed(_logger, ex);
        }
        finally
        {
            written.TrySetResult();
        }
    }
}
