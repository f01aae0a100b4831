namespace Harness.LoadTests.Engine;

/// <summary>Receives what the engine measures. Called from many threads at once; keep it cheap.</summary>
public interface ILoadObserver
{
    void OnRequest(in RequestSample sample);

    void OnProgress(LoadProgress progress);
}
