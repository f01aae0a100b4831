using System.Runtime.CompilerServices;
using System.Runtime.ExceptionServices;

namespace Harness.Scheduling;

/// <summary>
/// A <see cref="SynchronizationContext"/> that runs callbacks on an <see cref="IWorkScheduler"/>, with itself as
/// <see cref="SynchronizationContext.Current"/>, so that await continuations captured there come back to the
/// same scheduler. It is the hook a dispatcher that honours a synchronization context (CoreWCF's
/// DispatchRuntime.SynchronizationContext) uses to run operations on a chosen scheduler.
/// </summary>
public sealed class WorkSchedulerSynchronizationContext : SynchronizationContext
{
    private static readonly ConditionalWeakTable<IWorkScheduler, WorkSchedulerSynchronizationContext> Contexts = [];

    public WorkSchedulerSynchronizationContext(IWorkScheduler scheduler)
    {
        ArgumentNullException.ThrowIfNull(scheduler);
        Scheduler = scheduler;
    }

    public IWorkScheduler Scheduler { get; }

    /// <summary>The context shared by every caller that schedules on <paramref name="scheduler"/>.</summary>
    public static WorkSchedulerSynchronizationContext For(IWorkScheduler scheduler)
    {
        ArgumentNullException.ThrowIfNull(scheduler);
        return Contexts.GetValue(scheduler, static s => new WorkSchedulerSynchronizationContext(s));
    }

    /// <summary>Queues <paramref name="d"/> to the scheduler; it runs in the poster's ExecutionContext, as with the base context.</summary>
    public override void Post(SendOrPostCallback d, object? state)
    {
        ArgumentNullException.ThrowIfNull(d);
        Scheduler.Post(static s => ((Invocation)s!).Run(), new Invocation(this, d, state, ExecutionContext.Capture()));
    }

    /// <summary>
    /// Runs <paramref name="d"/> inline when already on this context; otherwise queues it and waits in a
    /// <see cref="BlockingRegion"/>, so a caller on a slot-limited scheduler gives its slot up meanwhile.
    /// An exception thrown by <paramref name="d"/> is rethrown to the caller.
    /// </summary>
    public override void Send(SendOrPostCallback d, object? state)
    {
        ArgumentNullException.ThrowIfNull(d);
        if (Current == this)
        {
            d(state);
            return;
        }

        var send = new SendCompletion(d, state);
        Scheduler.Post(static s => ((Invocation)s!).Run(), new Invocation(this, SendCompletion.Callback, send, ExecutionContext.Capture()));
        using (BlockingRegion.Enter())
        {
            send.WaitForCompletion();
        }

        send.Error?.Throw();
    }

    public override SynchronizationContext CreateCopy() => this;

    private sealed class Invocation
    {
        private static readonly ContextCallback RunInContext = static s => ((Invocation)s!).RunHere();

        private readonly WorkSchedulerSynchronizationContext _context;
        private readonly SendOrPostCallback _callback;
        private readonly object? _state;
        private readonly ExecutionContext? _executionContext;

        public Invocation(WorkSchedulerSynchronizationContext context, SendOrPostCallback callback, object? state, ExecutionContext? executionContext)
        {
            _context = context;
            _callback = callback;
            _state = state;
            _executionContext = executionContext;
        }

        public void Run()
        {
            if (_executionContext is null)
            {
                RunHere();
            }
            else
            {
                ExecutionContext.Run(_executionContext, RunInContext, this);
            }
        }

        private void RunHere()
        {
            var previous = Current;
            SetSynchronizationContext(_context);
            try
            {
                _callback(_state);
            }
            finally
            {
                SetSynchronizationContext(previous);
            }
        }
    }

    private sealed class SendCompletion
    {
        public static readonly SendOrPostCallback Callback = static s => ((SendCompletion)s!).Execute();

        private readonly SendOrPostCallback _callback;
        private readonly object? _state;
        private bool _done;

        public SendCompletion(SendOrPostCallback callback, object? state)
        {
            _callback = callback;
            _state = state;
        }

        public ExceptionDispatchInfo? Error { get; private set; }

        public void WaitForCompletion()
        {
            lock (this)
            {
                // Send has no timeout by contract; the loop only guards against waking before the pulse.
                while (!_done)
                {
                    Monitor.Wait(this);
                }
            }
        }

        private void Execute()
        {
            try
            {
                _callback(_state);
            }
            catch (Exception ex)
            {
                // Rethrown on the sending thread; the scheduler does not count it as a failed item.
                Error = ExceptionDispatchInfo.Capture(ex);
            }
            finally
            {
                lock (this)
                {
                    _done = true;
                    Monitor.Pulse(this);
                }
            }
        }
    }
}
