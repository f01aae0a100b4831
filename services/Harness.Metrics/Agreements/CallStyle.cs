using Harness.Text;

namespace Harness.Agreements;

/// <summary>How one call to the third party waits. The runtime injects threads differently for each.</summary>
public enum CallStyle
{
    /// <summary>A synchronous HTTP send to the stub, as pre-async code did: the thread blocks in the socket.</summary>
    Blocking,

    /// <summary>An awaited HTTP send to the stub: no thread is held while waiting.</summary>
    Async,

    /// <summary>In-process stand-in: <see cref="Thread.Sleep(int)"/>; the ThreadPool rescues it only by starvation injection.</summary>
    ThreadSleep,

    /// <summary>In-process stand-in: <c>Task.Delay(ms).Wait()</c>; the ThreadPool sees cooperative blocking and adds threads quickly.</summary>
    TaskWait,

    /// <summary>In-process stand-in: <c>await Task.Delay(ms)</c>; holds no thread.</summary>
    TaskDelay,
}

public static class CallStyles
{
    private static readonly Dictionary<string, CallStyle> ByName = new(StringComparer.OrdinalIgnoreCase)
    {
        ["blocking"] = CallStyle.Blocking,
        ["async"] = CallStyle.Async,
        ["thread-sleep"] = CallStyle.ThreadSleep,
        ["task-wait"] = CallStyle.TaskWait,
        ["task-delay"] = CallStyle.TaskDelay,
    };

    /// <summary>The wire names, in declaration order, for messages that list the valid values.</summary>
    public static IReadOnlyList<string> Names { get; } = Enum.GetValues<CallStyle>().Select(ToName).ToArray();

    public static string ToName(this CallStyle style) => style switch
    {
        CallStyle.Blocking => "blocking",
        CallStyle.Async => "async",
        CallStyle.ThreadSleep => "thread-sleep",
        CallStyle.TaskWait => "task-wait",
        CallStyle.TaskDelay => "task-delay",
        _ => throw new ArgumentOutOfRangeException(nameof(style), style, null),
    };

    /// <summary>Parses a wire name; an empty value means <see cref="CallStyle.Blocking"/>, the style of the experiments.</summary>
    public static CallStyle Parse(string? name)
    {
        if (string.IsNullOrWhiteSpace(name))
        {
            return CallStyle.Blocking;
        }

        return ByName.TryGetValue(name.Trim(), out var style)
            ? style
            : throw new WorkloadArgumentException(
                $"style must be one of: {string.Join(", ", Names)}; got '{Echo.Bounded(name)}'.");
    }

    /// <summary>True when the style holds its thread for the whole wait.</summary>
    public static bool HoldsThread(this CallStyle style) =>
        style is CallStyle.Blocking or CallStyle.ThreadSleep or CallStyle.TaskWait;
}
