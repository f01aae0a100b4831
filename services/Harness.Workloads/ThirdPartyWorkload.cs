using System.Diagnostics;
using Harness.Agreements;
using Harness.Scheduling;

namespace Harness.Workloads;

/// <summary>
/// The slow third-party operation. A fan-out of K calls is spread over at most P workers; workers of the
/// thread-holding styles are work items posted to the service's scheduler, as experiment S2's service queued
/// its calls on a pool, while the request's own thread waits for them.
/// </summary>
public sealed class ThirdPartyWorkload
{
    private readonly HttpClient _http;
    private readonly IWorkScheduler _scheduler;
    private readonly WorkloadLimits _limits;

    /// <param name="http">A client whose BaseAddress is the stub; it must allow as many connections as calls in flight.</param>
    public ThirdPartyWorkload(HttpClient http, IWorkScheduler scheduler, WorkloadLimits limits)
    {
        _http = http;
        _scheduler = scheduler;
        _limits = limits;
    }

    /// <summary>
    /// Runs the operation. Thread-holding styles complete synchronously, blocking the calling thread as a
    /// synchronous WCF operation would; the other styles release it while they wait.
    /// </summary>
    /// <exception cref="WorkloadArgumentException">An argument is outside <see cref="WorkloadLimits"/>.</exception>
    public ValueTask<ThirdPartyCallResult> ExecuteAsync(ThirdPartyCallRequest request, CancellationToken cancellationToken = default)
    {
        _limits.Validate(request);
        var state = new FanOut(this, request, cancellationToken);
        if (request.Style.HoldsThread())
        {
            state.RunBlocking();
            return ValueTask.FromResult(state.Result());
        }

        return state.RunAsync();
    }

    private void CallOnceBlocking(ThirdPartyCallRequest request, CancellationToken cancellationToken)
    {
        using var region = BlockingRegion.Enter();
        switch (request.Style)
        {
            case CallStyle.Blocking:
                using (var message = DelayRequest(request.DelayMs))
                using (var response = _http.Send(message, HttpCompletionOption.ResponseContentRead, cancellationToken))
                {
                    response.EnsureSuccessStatusCode();
                }

                break;
            case CallStyle.ThreadSleep:
                Thread.Sleep(request.DelayMs);
                break;
            case CallStyle.TaskWait:
                Task.Delay(request.DelayMs, cancellationToken).Wait(cancellationToken);
                break;
            default:
                throw new InvalidOperationException($"{request.Style} does not hold a thread.");
        }
    }

    // Not async itself: a task-delay call returns the delay's own task, so a call in flight holds no frame for it.
    private Task CallOnceAsync(ThirdPartyCallRequest request, CancellationToken cancellationToken) =>
        request.Style switch
        {
            CallStyle.Async => CallStubAsync(request.DelayMs, cancellationToken),
            CallStyle.TaskDelay => Task.Delay(request.DelayMs, cancellationToken),
            _ => throw new InvalidOperationException($"{request.Style} holds a thread."),
        };

    private async Task CallStubAsync(int delayMs, CancellationToken cancellationToken)
    {
        using var message = DelayRequest(delayMs);
        using var response = await _http.SendAsync(message, HttpCompletionOption.ResponseContentRead, cancellationToken);
        response.EnsureSuccessStatusCode();
    }

    private static HttpRequestMessage DelayRequest(int delayMs) =>
        new(HttpMethod.Get, $"delay?ms={delayMs}");

    /// <summary>The state of one operation: a shared call counter that its workers draw from.</summary>
    private sealed class FanOut
    {
        private readonly ThirdPartyWorkload _owner;
        private readonly ThirdPartyCallRequest _request;
        private readonly CancellationToken _cancellationToken;
        private readonly long _started = Stopwatch.GetTimestamp();
        // The threads the calls ran on: the first without a set, the others in one made only when a second appears,
        // since nearly every async operation stays on one thread and this object lives as long as its call.
        private int _firstThread;
        private HashSet<int>? _otherThreads;
        private int _nextCall;
        private int _completedCalls;
        private Exception? _failure;

        public FanOut(ThirdPartyWorkload owner, ThirdPartyCallRequest request, CancellationToken cancellationToken)
        {
            _owner = owner;
            _request = request;
            _cancellationToken = cancellationToken;
        }

        public void RunBlocking()
        {
            var workers = _request.EffectiveParallelism;
            if (_request.Fanout == 1)
            {
                WorkBlocking();
            }
            else
            {
                using var done = new CountdownEvent(workers);
                for (var i = 0; i < workers; i++)
                {
                    _owner._scheduler.Post(
                        static s =>
                        {
                            var (fanOut, countdown) = ((FanOut, CountdownEvent))s!;
                            try
                            {
                                fanOut.WorkBlocking();
                            }
                            finally
                            {
                                countdown.Signal();
                            }
                        },
                        (this, done));
                }

                // The request's thread waits for its work items; under Iocp it gives up its slot meanwhile,
                // or N requests waiting on their own items would hold every slot.
                using (BlockingRegion.Enter())
                {
                    done.Wait();
                }
            }

            ThrowIfFailed();
        }

        public async ValueTask<ThirdPartyCallResult> RunAsync()
        {
            var workers = _request.EffectiveParallelism;
            if (workers == 1)
            {
                // One worker: its loop runs here rather than in WorkAsync, one awaiting frame fewer per call in
                // flight (100,000 of them in S1), and a failure propagates as it is.
                while (++_nextCall <= _request.Fanout)
                {
                    NoteThread();
                    await _owner.CallOnceAsync(_request, _cancellationToken);
                    _completedCalls++;
                }

                return Result();
            }

            var tasks = new Task[workers];
            for (var i = 0; i < workers; i++)
            {
                tasks[i] = WorkAsync();
            }

            await Task.WhenAll(tasks);
            ThrowIfFailed();
            return Result();
        }

        public ThirdPartyCallResult Result()
        {
            var distinct = Volatile.Read(ref _firstThread) == 0 ? 0 : 1;
            if (Volatile.Read(ref _otherThreads) is { } others)
            {
                lock (others)
                {
                    distinct += others.Count;
                }
            }

            return new ThirdPartyCallResult(
                Volatile.Read(ref _completedCalls),
                Stopwatch.GetElapsedTime(_started),
                Environment.CurrentManagedThreadId,
                distinct);
        }

        private void WorkBlocking()
        {
            NoteThread();
            try
            {
                while (Interlocked.Increment(ref _nextCall) <= _request.Fanout && Volatile.Read(ref _failure) is null)
                {
                    _owner.CallOnceBlocking(_request, _cancellationToken);
                    Interlocked.Increment(ref _completedCalls);
                }
            }
            catch (Exception ex)
            {
                Interlocked.CompareExchange(ref _failure, ex, null);
            }
        }

        private async Task WorkAsync()
        {
            try
            {
                while (Interlocked.Increment(ref _nextCall) <= _request.Fanout && Volatile.Read(ref _failure) is null)
                {
                    NoteThread();
                    await _owner.CallOnceAsync(_request, _cancellationToken);
                    Interlocked.Increment(ref _completedCalls);
                }
            }
            catch (Exception ex)
            {
                Interlocked.CompareExchange(ref _failure, ex, null);
            }
        }

        private void NoteThread()
        {
            var thread = Environment.CurrentManagedThreadId;
            var first = Interlocked.CompareExchange(ref _firstThread, thread, 0);
            if (first == 0 || first == thread)
            {
                return;
            }

            var others = Volatile.Read(ref _otherThreads) ?? Interlocked.CompareExchange(ref _otherThreads, [], null) ?? _otherThreads!;
            lock (others)
            {
                others.Add(thread);
            }
        }

        private void ThrowIfFailed()
        {
            if (_failure is { } failure)
            {
                System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw(failure);
            }
        }
    }
}
