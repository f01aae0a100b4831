namespace Harness.Rpc.Grpc;

/// <summary>
/// The gRPC status codes (doc/statuscodes.md in grpc/grpc). Values and names match
/// <c>Grpc.Core.StatusCode</c>, so code written against this enum ports by changing the type name.
/// </summary>
public enum GrpcStatusCode
{
    OK = 0,
    Cancelled = 1,
    Unknown = 2,
    InvalidArgument = 3,
    DeadlineExceeded = 4,
    NotFound = 5,
    AlreadyExists = 6,
    PermissionDenied = 7,
    ResourceExhausted = 8,
    FailedPrecondition = 9,
    Aborted = 10,
    OutOfRange = 11,
    Unimplemented = 12,
    Internal = 13,
    Unavailable = 14,
    DataLoss = 15,
    Unauthenticated = 16,
}
