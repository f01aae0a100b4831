using System.Collections.Concurrent;
using System.Diagnostics;
using System.Diagnostics.Tracing;
using System.Globalization;

namespace Harness.LoadTests.Clients.Tests.Tracing;

/// <summary>Listens to <see cref="ClientEventSource"/>'s counters as dotnet-counters does, every 0.1 s, and keeps each one's last value.</summary>
internal sealed class ClientCounterListener : EventListener
{
    private readonly ConcurrentDictionary<string, double> _latest = new();

    /// <summary>Waits until the counter <paramref name="name"/> reports at least <paramref name="atLeast"/>, for at most <paramref name="bound"/>; its last value.</summary>
    public async Task<double?> WaitForAsync(string name, double atLeast, TimeSpan bound)
    {
        var clock = Stopwatch.StartNew();
        while (true)
        {
            var value = _latest.TryGetValue(name, out var v) ? v : (double?)null;
            if (value >= atLeast || clock.Elapsed > bound)
            {
                return value;
            }

            await Task.Delay(50);
        }
    }

    protected override void OnEventSourceCreated(EventSource eventSource)
    {
        if (eventSource.Name == ClientEventSource.SourceName)
        {
            EnableEvents(eventSource, EventLevel.Verbose, EventKeywords.All, new Dictionary<string, string?> { ["EventCounterIntervalSec"] = "0.1" });
        }
    }

    protected override void OnEventWritten(EventWrittenEventArgs eventData)
    {
        if (eventData.EventName != "EventCounters" || eventData.Payload?[0] is not IDictionary<string, object> counter)
        {
            return;
        }

        // A PollingCounter reports its value as Mean, an IncrementingPollingCounter its change as Increment.
        if ((counter.TryGetValue("Mean", out var value) || counter.TryGetValue("Increment", out value)) && counter["Name"] is string name)
        {
            _latest[name] = Convert.ToDouble(value, CultureInfo.InvariantCulture);
        }
    }
}
