namespace Harness.Scheduling;

/// <summary>A callback and its state, queued by a scheduler that owns its threads.</summary>
internal sealed class WorkItem
{
    private readonly Action<object?> _callback;
    private readonly object? _state;

    public WorkItem(Action<object?> callback, object? state)
    {
        _callback = callback;
        _state = state;
    }

    public void Invoke() => _callback(_state);
}
