namespace Harness.LoadTests.Engine;

/// <summary>Receives what the engine measures. Called from many threads at once; keep it cheap.</summary>
public interface ILoadObserver
{
    /// <summary>
    /// One request ended (success or failure). A request the drain gave up on is reported as a failure of
    /// <see cref="LoadRunner.InFlightAtEndStatus"/> when it is given up; one the caller cancelled is not reported.
    /// </summary>
    void OnRequest(in RequestSample sample);

    /// <summary>The scenario's counters, about once a second and once at its end.</summary>
    void OnProgress(LoadProgress progress);
}
