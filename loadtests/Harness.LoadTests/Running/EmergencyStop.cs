using Harness.LoadTests.Hosting;

namespace Harness.LoadTests.Running;

/// <summary>
/// What must not outlive the runner when it ends before its own clean-up (a second Ctrl+C or SIGTERM): the local
/// services, and whatever a target provider registers (matrix: the run's containers). Each step is bounded, and a
/// failing one does not stop the others.
/// </summary>
internal static class EmergencyStop
{
    private static readonly Lock Gate = new();
    private static readonly List<Action> Steps = [];

    /// <summary>Adds a step to <see cref="Run"/> until the returned handle is disposed.</summary>
    public static IDisposable Register(Action step)
    {
        lock (Gate)
        {
            Steps.Add(step);
        }

        return new Registration(step);
    }

    public static void Run()
    {
        LocalProcess.KillAll();
        Action[] steps;
        lock (Gate)
        {
            steps = [.. Steps];
        }

        foreach (var step in steps)
        {
            try
            {
                step();
            }
            catch (Exception ex)
            {
                // The process is ending; say what was left, and go on with the next step.
                Console.Error.WriteLine($"clean-up step failed: {ex.Message}");
            }
        }
    }

    private sealed class Registration(Action step) : IDisposable
    {
        public void Dispose()
        {
            lock (Gate)
            {
                Steps.Remove(step);
            }
        }
    }
}
