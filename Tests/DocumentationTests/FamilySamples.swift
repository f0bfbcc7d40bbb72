public import Inject
import InjectTesting
import TestSupport
import Testing

// The samples of the families' documentation: a store per chat room, a draft per room with a
// test value, a thumbnail cache per album for any isolation, and the overrides of each.

/// A chat room, by its ID.
public enum ChatRoom {
  /// A room's identifier on the server.
  public typealias ID = Int
}

/// What a chat room's store talks to.
public protocol ChatClient: AnyObject {}
final class LiveChatClient: ChatClient {}
final class MockChatClient: ChatClient {}
final class DemoChatClient: ChatClient {}

/// The messages of one room, shared by every screen that shows it.
public final class ChatRoomStore {
  let roomID: ChatRoom.ID
  let client: any ChatClient

  init(roomID: ChatRoom.ID, client: any ChatClient = LiveChatClient()) {
    self.roomID = roomID
    self.client = client
  }
}

/// One store per chat room, shared by every screen that shows the room.
public let chatRoomStores = InjectionFamily<ChatRoom.ID, ChatRoomStore>(strategy: .shared) { id in
  ChatRoomStore(roomID: id)
}

@MainActor final class ChatScreenModel {
  @Instance var store: ChatRoomStore
  init(roomID: ChatRoom.ID) { _store = Instance(chatRoomStores[roomID]) }
}

/// The draft of one room's next message.
public final class DraftStore {
  enum Storage { case disk, inMemory }
  let roomID: ChatRoom.ID
  let storage: Storage
  init(roomID: ChatRoom.ID, storage: Storage = .disk) {
    self.roomID = roomID
    self.storage = storage
  }
}

/// One draft per chat room, kept in memory in tests.
public let chatRoomDrafts = InjectionFamily<ChatRoom.ID, DraftStore>(
  strategy: .shared,
  instance: { id in DraftStore(roomID: id) },
  test: { id in DraftStore(roomID: id, storage: .inMemory) }
)

/// An album, by its ID.
public enum Album {
  /// An album's identifier.
  public typealias ID = Int
}

/// The thumbnails of one album, for any isolation.
public final class ThumbnailCache: Sendable {
  enum Storage: Sendable { case disk, inMemory }
  let albumID: Album.ID
  let storage: Storage
  init(albumID: Album.ID, storage: Storage = .disk) {
    self.albumID = albumID
    self.storage = storage
  }
}

/// One thumbnail cache per album, for any isolation.
public let thumbnailCaches = SendableInjectionFamily<Album.ID, ThumbnailCache>(strategy: .shared) { id in
  ThumbnailCache(albumID: id)
}

actor AlbumLoader {
  @SendableInstance var cache: ThumbnailCache
  init(albumID: Album.ID) { _cache = SendableInstance(thumbnailCaches[albumID]) }
  func storage() -> ThumbnailCache.Storage { cache.storage }
}

/// A demo build's start: every room's store talks to the demo client.
@MainActor func startDemo() {
  chatRoomStores.override(with: { id in ChatRoomStore(roomID: id, client: DemoChatClient()) })
  defer { chatRoomStores.rollbackOverride() }
  #expect(ChatScreenModel(roomID: 1).store.client is DemoChatClient)
}

/// A tool's run: every album's thumbnails in memory.
func renderInMemory() async {
  thumbnailCaches.override(with: { id in ThumbnailCache(albumID: id, storage: .inMemory) })
  defer { thumbnailCaches.rollbackOverride() }
  #expect(await AlbumLoader(albumID: 1).storage() == .inMemory)
}

// A free function's traits are evaluated off the main actor, where `chatRoomStores[42]` cannot
// be named: the trait takes the family and the key.
@Test(.overriding(chatRoomStores, key: 42, with: ChatRoomStore(roomID: 42, client: MockChatClient())))
@MainActor func showsRoom42sMockMessages() {
  #expect(ChatScreenModel(roomID: 42).store.client is MockChatClient)
}

@Suite @MainActor struct FamilySamples {
  @Test(.isolatedInjections) func oneStorePerRoomSharedByItsScreens() {
    let first = ChatScreenModel(roomID: 42)
    let second = ChatScreenModel(roomID: 42)
    #expect(first.store === second.store)
    #expect(ChatScreenModel(roomID: 7).store !== first.store)
  }

  @Test(.isolatedInjections) func everyRoomInAScope() {
    chatRoomStores.withOverride(
      { id in ChatRoomStore(roomID: id, client: MockChatClient()) },
      operation: {
        #expect(ChatScreenModel(roomID: 42).store.client is MockChatClient)
      })
  }

  @Test(.overriding(chatRoomStores, with: { id in ChatRoomStore(roomID: id, client: MockChatClient()) }))
  @MainActor func showsTheMockMessages() {
    #expect(ChatScreenModel(roomID: 42).store.client is MockChatClient)
  }

  @Test(.overriding(chatRoomStores, with: { id in ChatRoomStore(roomID: id, client: MockChatClient()) }))
  func oneRoomOfItsOwn() {
    let demo = ChatRoomStore(roomID: 42, client: DemoChatClient())
    chatRoomStores[42].override(with: demo)
    #expect(ChatScreenModel(roomID: 42).store === demo)
    #expect(ChatScreenModel(roomID: 7).store.client is MockChatClient)
  }

  @Test(.isolatedInjections) func theTestValuePerKey() {
    #expect(chatRoomDrafts[3].resolve().storage == .inMemory)
  }

  @Test(.isolatedInjections) func everyAlbumInAScope() {
    thumbnailCaches.withOverride(
      { id in ThumbnailCache(albumID: id, storage: .inMemory) },
      operation: {
        #expect(thumbnailCaches[7].resolve().storage == .inMemory)
      })
  }

  @Test(.timeLimit(.minutes(4))) func demoAndToolRuns() async {
    await #expect(processExitsWith: .success) {
      ChildProcessBound.start()
      await MainActor.run { startDemo() }
      await renderInMemory()
    }
  }
}
