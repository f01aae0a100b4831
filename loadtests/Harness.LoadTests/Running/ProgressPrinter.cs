using Harness.LoadTests.Common;
using Harness.LoadTests.Engine;
using Spectre.Console;

namespace Harness.LoadTests.Running;

/// <summary>
/// The progress line (<see cref="ProgressSecond.ToLine"/>). On a terminal it is rewritten in place every second; when
/// output is redirected (logs) or CI is set, a full line is written every five seconds. Each second also goes to
/// <see cref="SecondPassed"/> (<c>--live</c>), so both show the same figures.
/// </summary>
internal sealed class ProgressPrinter(IAnsiConsole console, ProgressTracker tracker)
{
    private readonly bool _interactive = Terminal.Interactive;
    private readonly Lock _lock = new();

    /// <summary>Every second of every series, as the line shows it.</summary>
    public event Action<ProgressSecond>? SecondPassed;

    public ProgressTracker Tracker { get; } = tracker;

    public void Update(LoadProgress p)
    {
        ProgressSecond second;
        lock (_lock)
        {
            second = Tracker.Next(p);
            var line = second.ToLine();
            if (_interactive)
            {
                // Carriage return, then erase to the end of the line (ANSI), so a shorter line leaves no tail.
                Console.Write("\r" + line + "\u001b[K");
            }
            else if (p.Second % 5 == 0)
            {
                console.WriteLine(line);
            }
        }

        SecondPassed?.Invoke(second);
    }

    public void EndSeries()
    {
        if (_interactive)
        {
            Console.WriteLine();
        }
    }
}
