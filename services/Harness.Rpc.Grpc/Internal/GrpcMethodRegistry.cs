namespace Harness.Rpc.Grpc.Internal;

/// <summary>
/// The services and methods mapped so far, so each UNIMPLEMENTED catch-all is mapped once and a method is not
/// mapped twice. A singleton added by <see cref="GrpcServiceCollectionExtensions.AddGrpcWire"/>.
/// </summary>
internal sealed class GrpcMethodRegistry
{
    private readonly Lock _lock = new();
    private readonly HashSet<string> _services = new(StringComparer.Ordinal);
    private readonly HashSet<string> _methods = new(StringComparer.Ordinal);

    /// <summary>
    /// Records a method. Says whether it is the application's first (which maps the unknown-service catch-all)
    /// and whether its service is new (which maps that service's unknown-method catch-all).
    /// </summary>
    /// <exception cref="InvalidOperationException">The method is already mapped.</exception>
    public (bool FirstMethod, bool NewService) AddMethod(string serviceFullName, string fullMethodName)
    {
        lock (_lock)
        {
            if (!_methods.Add(fullMethodName))
            {
                throw new InvalidOperationException($"The gRPC method '{fullMethodName}' is already mapped.");
            }

            return (_methods.Count == 1, _services.Add(serviceFullName));
        }
    }
}
