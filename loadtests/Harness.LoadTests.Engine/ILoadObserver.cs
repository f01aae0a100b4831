namespace Harness.LoadTests.Engine;

/// <summary>Receives what the engine measures. Called from many threads at once; keep it cheap.</summary>
public interface ILoadObserver
{
    /// <summary>One request ended (success or failure); requests the engine gave up on are not reported.</summary>
    void OnRequest(in RequestSample sample);

    /// <summary>The scenario's counters, about once a second and once at its end.</summary>
    void OnProgress(LoadProgress progress);
}
