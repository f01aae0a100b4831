namespace Harness.ServiceOperations;

/// <summary>
/// Counts the operations a service is executing right now, per operation, and the peak. The count is taken
/// inside the operation, on the thread that runs it, so it shows what the scheduler let run, not what is queued.
/// </summary>
public sealed class OperationTracker
{
    private readonly Dictionary<string, Counter> _counters;

    public OperationTracker(IEnumerable<string> operations)
    {
        _counters = operations.ToDictionary(o => o, _ => new Counter(), StringComparer.Ordinal);
    }

    public IEnumerable<KeyValuePair<string, Counter>> Counters => _counters;

    /// <summary>Marks one execution of <paramref name="operation"/>; dispose the scope when it ends.</summary>
    public Scope Begin(string operation)
    {
        var counter = _counters[operation];
        var executing = Interlocked.Increment(ref counter.ExecutingField);
        long peak;
        while (executing > (peak = Volatile.Read(ref counter.PeakField))
            && Interlocked.CompareExchange(ref counter.PeakField, executing, peak) != peak)
        {
        }

        return new Scope(counter);
    }

    public sealed class Counter
    {
        internal long ExecutingField;
        internal long PeakField;
        internal long CompletedField;
        internal long FailedField;

        public long Executing => Volatile.Read(ref ExecutingField);

        public long Peak => Volatile.Read(ref PeakField);

        public long Completed => Volatile.Read(ref CompletedField);

        public long Failed => Volatile.Read(ref FailedField);
    }

    public struct Scope : IDisposable
    {
        private Counter? _counter;
        private bool _failed;

        internal Scope(Counter counter) => _counter = counter;

        /// <summary>Counts this execution as failed when it is disposed.</summary>
        public void Fail() => _failed = true;

        public void Dispose()
        {
            if (_counter is { } counter)
            {
                _counter = null;
                Interlocked.Decrement(ref counter.ExecutingField);
                Interlocked.Increment(ref _failed ? ref counter.FailedField : ref counter.CompletedField);
            }
        }
    }
}
