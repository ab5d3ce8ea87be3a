#import <Foundation/Foundation.h>
#import "SHPricing.h"

static const NSUInteger SHMaxCount = 1000;

@protocol SHPriced <NSObject>
- (NSUInteger)priceInCents;
@end

@interface SHItem : NSObject <SHPriced>
@property (nonatomic, copy) NSString *sku;
@property (nonatomic) NSUInteger count;
@end

@implementation SHItem
- (NSUInteger)priceInCents {
    return SHFormatCents(self.count * 100);
}
@end

@implementation SHInventory (Restock)
- (void)restock:(NSString *)sku count:(NSUInteger)n {
    SHItem *item = [self.items objectForKey:sku];
    item.count = MIN(item.count + n, SHMaxCount);
}
@end

NSUInteger SHClampCount(NSUInteger n) {
    return n > SHMaxCount ? SHMaxCount : n;
}
